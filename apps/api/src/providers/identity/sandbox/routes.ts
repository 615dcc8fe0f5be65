import {
  messageResponseSchema,
  sandboxIdentityDecisionBodySchema,
  sandboxIdentitySessionSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { decideSandboxSession, type SandboxIdentityDeps, sandboxSessionOf } from "./service.ts";

/** The sandbox's page (labelled as a sandbox by the web app); registered only for the sandbox. */
export const sandboxIdentityRoutes: FastifyPluginAsyncZod<SandboxIdentityDeps> = async (app, deps) => {
  const params = z.object({ id: z.uuid() });

  app.get(
    "/identity/sandbox/sessions/:id",
    {
      config: { auth: "user" },
      schema: {
        tags: ["sandbox"],
        summary: "One of the account's sandbox identity checks, for the sandbox's page",
        params,
        response: { 200: sandboxIdentitySessionSchema },
      },
    },
    async (request, reply) => {
      const row = await sandboxSessionOf(deps, (await request.requireUser()).id, request.params.id);
      reply.header("cache-control", "no-store");
      return {
        id: row.id,
        status: row.status,
        firstName: row.firstName,
        lastName: row.lastName,
        createdAt: row.createdAt.toISOString(),
      };
    },
  );

  app.post(
    "/identity/sandbox/sessions/:id/decision",
    {
      config: { auth: "user" },
      schema: {
        tags: ["sandbox"],
        summary: "Choose a sandbox identity check's outcome (sent as the provider's signed webhook)",
        params,
        body: sandboxIdentityDecisionBodySchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await decideSandboxSession(deps, (await request.requireUser()).id, request.params.id, request.body);
      return reply
        .code(202)
        .send({ message: request.t("The sandbox has sent its decision. It will show in a moment.") });
    },
  );
};
