import {
  adminOptionalReasonBodySchema,
  adminPayoutListQuerySchema,
  adminPayoutListSchema,
  adminPayoutMismatchListSchema,
  adminPayoutSchema,
  payoutFailBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listMismatches } from "../reconcile.ts";
import type { PayoutDeps } from "../routes.ts";
import { adminPayoutView, approvePayout, failPayout, listAdminPayouts, recordPayoutPaid } from "./service.ts";

/* The operators' payout queue: list, approve, mark paid, fail (the rules are in service.ts). */
export const adminPayoutRoutes: FastifyPluginAsyncZod<PayoutDeps> = async (app, deps) => {
  const { db, config: settings, payouts } = deps;
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;
  const params = z.object({ id: z.uuid() });
  // Approving and marking paid are routine: an operator may leave the reason out.
  const approvedReason = "Approved after checks";
  const paidReason = "Paid by bank transfer";

  app.get(
    "/admin/payouts",
    {
      config,
      schema: {
        tags,
        summary: "Payouts, newest first, with the payee's identity, onboarding and bank account checks",
        querystring: adminPayoutListQuerySchema,
        response: { 200: adminPayoutListSchema },
      },
    },
    async (request) => listAdminPayouts(db, request.query),
  );

  app.get(
    "/admin/payouts/mismatches",
    {
      config,
      schema: {
        tags,
        summary:
          "Stripe connected accounts holding money that no payout in flight explains (the reconciliation's findings)",
        response: { 200: adminPayoutMismatchListSchema },
      },
    },
    async () => ({ items: await listMismatches(db) }),
  );

  app.post(
    "/admin/payouts/:id/approve",
    {
      config,
      schema: {
        tags,
        summary: "Approve a requested payout: processing, then paid by hand or sent to Stripe",
        params,
        body: adminOptionalReasonBodySchema,
        response: { 200: adminPayoutSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const actor = await request.requireUser();
      const reason = request.body?.reason ?? approvedReason;
      const queued = await approvePayout(db, settings, payouts, actor.id, id, reason);
      if (queued) deps.pokeJobs();
      return adminPayoutView(db, id);
    },
  );

  app.post(
    "/admin/payouts/:id/paid",
    {
      config,
      schema: {
        tags,
        summary: "Record a payout made by bank transfer as paid (manual provider only)",
        params,
        body: adminOptionalReasonBodySchema,
        response: { 200: adminPayoutSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const actor = await request.requireUser();
      const reason = request.body?.reason ?? paidReason;
      await recordPayoutPaid(db, actor.id, id, reason);
      return adminPayoutView(db, id);
    },
  );

  app.post(
    "/admin/payouts/:id/fail",
    {
      config,
      schema: {
        tags,
        summary: "Fail a requested or processing payout with a reason: the amount returns to available",
        params,
        body: payoutFailBodySchema,
        response: { 200: adminPayoutSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const actor = await request.requireUser();
      const { reason } = request.body;
      await failPayout(db, actor.id, id, reason);
      deps.pokeJobs();
      return adminPayoutView(db, id);
    },
  );
};
