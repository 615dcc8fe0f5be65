import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Metrics } from "./metrics.ts";

/** Counts every answer under its route pattern; requests matching no route share one label. */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics }: { metrics: Metrics }) => {
    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? "(unmatched)";
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });
  },
  { name: "metrics" },
);
