import { healthResponseSchema, readinessResponseSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type HealthDeps, health, readinessProbe } from "./service.ts";

export type { HealthDeps } from "./service.ts";

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  const readiness = readinessProbe(deps);

  app.get(
    "/health",
    {
      config: { maintenance: "allow" },
      logLevel: "warn",
      schema: {
        tags: ["health"],
        summary: "Liveness and database reachability",
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const body = await health(deps);
      return reply.code(body.database === "ok" ? 200 : 503).send(body);
    },
  );

  app.get(
    "/health/ready",
    {
      // Probes keep coming during maintenance and during a drain; they must get a real answer.
      config: { maintenance: "allow" },
      logLevel: "warn",
      schema: {
        tags: ["health"],
        summary: "Readiness: whether a load balancer should send this instance traffic",
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const body = await readiness();
      return reply.code(body.status === "ready" ? 200 : 503).send(body);
    },
  );
};
