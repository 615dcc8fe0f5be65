import {
  identityFormBodySchema,
  identityProviderKindSchema,
  identitySessionStartSchema,
  identityStateSchema,
  messageResponseSchema,
  sandboxIdentityDecisionBodySchema,
  sandboxIdentitySessionSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import { signedWebhookRoute } from "../../lib/signed-webhook.ts";
import {
  AUTH_CLIENT_HEADER,
  IdentitySignatureError,
  SANDBOX_CLIENT_KEY,
  SIGNATURE_HEADER,
  sandboxDecision,
  sandboxIdentitySecret,
  signBody,
  type VeriffDecisionWebhook,
  type WebhookHeaders,
} from "../../providers/identity/index.ts";
import { rateLimit } from "../auth/rate-limits.ts";
import { applyIdentityEvent } from "./events.ts";
import {
  assertUndecided,
  type IdentityDeps,
  identityState,
  sandboxSessionOf,
  startSession,
} from "./service.ts";

/** The sandbox's decisions: signed at each attempt, received by the webhook's own handler. */
const sandboxDeliverJob = jobKind(
  "identity.sandbox-deliver",
  z.object({ payload: z.custom<VeriffDecisionWebhook>((v) => typeof v === "object" && v !== null) }),
);

/** GET /identity, POST /identity/sessions, the providers' webhook, the sandbox's page. */
export const identityRoutes: FastifyPluginAsyncZod<IdentityDeps> = async (app, deps) => {
  const { db, config, identity } = deps;
  const tags = ["identity"];

  /** Verifies a delivery and applies its event in `tx`: the one path for Veriff's and the sandbox's. */
  async function receive(tx: Tx, rawBody: Buffer, headers: WebhookHeaders) {
    const event = identity.parseWebhook(rawBody, headers);
    if (!event) return "ignored" as const;
    return applyIdentityEvent(tx, identity.kind, event);
  }

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
    handle: (raw, headers) => db.transaction((tx) => receive(tx, raw, headers)),
  });

  if (identity.kind !== "sandbox") return;

  // --- The sandbox's page (labelled as a sandbox by the web app) ---------------------------------
  const secret = sandboxIdentitySecret(config.appSecret);
  app.services.jobs.registry.register(sandboxDeliverJob, async (tx, { payload }) => {
    const raw = JSON.stringify(payload);
    await receive(tx, Buffer.from(raw), {
      [AUTH_CLIENT_HEADER]: SANDBOX_CLIENT_KEY,
      [SIGNATURE_HEADER]: signBody(raw, secret),
    });
  });

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
      const row = await sandboxSessionOf(deps, (await request.requireUser()).id, request.params.id);
      assertUndecided(row);
      await sandboxDeliverJob.enqueue(db, { payload: sandboxDecision(row.providerSessionId, request.body) });
      deps.pokeJobs();
      return reply
        .code(202)
        .send({ message: request.t("The sandbox has sent its decision. It will show in a moment.") });
    },
  );
};
