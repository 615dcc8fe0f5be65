import {
  identityFormBodySchema,
  identityProviderKindSchema,
  identitySessionStartSchema,
  identityStateSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedWebhookRoute } from "../../lib/signed-webhook.ts";
import { IdentitySignatureError } from "../../providers/identity/index.ts";
import { rateLimit } from "../auth/rate-limits.ts";
import { type IdentityDeps, identityState, receiveIdentityWebhook, startSession } from "./service.ts";

/** GET /identity, POST /identity/sessions, the providers' webhook (the sandbox's page: providers/identity/sandbox). */
export const identityRoutes: FastifyPluginAsyncZod<IdentityDeps> = async (app, deps) => {
  const { config, identity } = deps;
  const tags = ["identity"];

  app.get(
    "/identity",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "Where the account's identity check stands and what it can do next",
        response: { 200: identityStateSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return identityState(deps, (await request.requireUser()).id);
    },
  );

  app.post(
    "/identity/sessions",
    {
      // Its own counter, with the password routes' budget per address.
      config: {
        auth: "user",
        rateLimit: { ...rateLimit(config, "password"), keyGenerator: (r) => `identity:${r.ip}` },
      },
      schema: {
        tags,
        summary: "Start an identity check (201), or resume the unfinished one (200)",
        description:
          "givenName and lastName are required unless the account's onboarding supplies them; then " +
          "those names are used and typed ones are ignored. At most rules.identitySessionsPerDay " +
          "sessions in any 24 hours (429 says when the next is possible).",
        body: identityFormBodySchema,
        response: { 200: identitySessionStartSchema, 201: identitySessionStartSchema },
      },
    },
    async (request, reply) => {
      const session = await startSession(deps, (await request.requireUser()).id, request.body);
      return reply.code(session.resumed ? 200 : 201).send(session);
    },
  );

  await signedWebhookRoute(app, {
    url: "/webhooks/identity/:provider",
    tags,
    summary: "Identity provider webhooks: decisions and progress (signed; each applied once)",
    params: z.object({ provider: identityProviderKindSchema }),
    accepts: ({ provider }) => provider === identity.kind,
    signatureError: IdentitySignatureError,
    refusedAs: "UnauthorizedException",
    logLabel: "identity",
    handle: (raw, headers) => receiveIdentityWebhook(deps, raw, headers),
  });
};
