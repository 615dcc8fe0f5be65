import {
  payoutDetailSchema,
  payoutEligibilitySchema,
  payoutRequestBodySchema,
  payoutSchema,
  transferListQuerySchema,
  transferListSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { signedWebhookRoute } from "../../lib/signed-webhook.ts";
import { WebhookSignatureError } from "../../providers/payments/types.ts";
import type { PayoutProvider } from "../../providers/payouts/types.ts";
import { applyPayoutWebhook } from "./events.ts";
import { listTransfers, payoutDetail, payoutEligibility, requestPayout } from "./service.ts";

export interface PayoutDeps {
  db: Db;
  config: Config;
  payouts: PayoutProvider;
  /** Wakes the job worker (a submission queued by an approval). */
  pokeJobs: () => void;
}

/** "Bank withdraw": `/profile/payout`, `/profile/transfers`, and the payout provider's webhook. */
export const payoutRoutes: FastifyPluginAsyncZod<PayoutDeps> = async (app, deps) => {
  const { db, config, payouts } = deps;
  const tags = ["payouts"];
  const auth = { auth: "user" } as const;

  app.get(
    "/profile/payout",
    {
      config: auth,
      schema: {
        tags,
        summary: "What I can withdraw, the minimum, and what stands in the way",
        response: { 200: payoutEligibilitySchema },
      },
    },
    async (request) => payoutEligibility(db, config, payouts, await request.requireUser()),
  );

  app.post(
    "/profile/payout",
    {
      config: auth,
      schema: {
        tags,
        summary: "Withdraw my available balance (or part of it) to one of my bank accounts",
        body: payoutRequestBodySchema,
        response: { 201: payoutSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const { payout, queued } = await requestPayout(db, config, payouts, user, request.body, request.locale);
      // Approved by the rules (its submission) or held (the creator's e-mail): sent promptly.
      if (queued) deps.pokeJobs();
      return reply.code(201).send(payout);
    },
  );

  app.get(
    "/profile/transfers",
    {
      config: auth,
      schema: {
        tags,
        summary: "My payouts, newest first",
        querystring: transferListQuerySchema,
        response: { 200: transferListSchema },
      },
    },
    async (request) => listTransfers(db, (await request.requireUser()).id, request.query),
  );

  app.get(
    "/profile/payouts/:id",
    {
      config: auth,
      schema: {
        tags,
        summary:
          "One of my payouts with its timeline: requested or scheduled, held, approved, sent, paid or failed",
        params: z.object({ id: z.uuid() }),
        response: { 200: payoutDetailSchema },
      },
    },
    async (request) => payoutDetail(db, (await request.requireUser()).id, request.params.id),
  );

  await signedWebhookRoute(app, {
    url: "/webhooks/payouts/stripe",
    tags,
    summary: "Stripe Connect's payout.paid / payout.failed events (signed; each applied once)",
    // The manual provider has no webhook: its outcomes are recorded by an operator.
    accepts: () => payouts.kind === "stripe",
    signatureError: WebhookSignatureError,
    refusedAs: "BadRequestException",
    logLabel: "payout",
    handle: async (raw, headers) => {
      const event = payouts.parseWebhook(raw, headers);
      if (!event) return "ignored";
      return applyPayoutWebhook(db, payouts, event);
    },
  });
};
