import {
  adminOptionalReasonBodySchema,
  adminPayoutListQuerySchema,
  adminPayoutListSchema,
  adminPayoutSchema,
  payoutFailBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { audit } from "../audit/queries.ts";
import { submitPayoutJob } from "./events.ts";
import { adminPayoutById, adminPayouts } from "./queries.ts";
import type { PayoutDeps } from "./routes.ts";
import { approve, confirmPaid, failByOperator } from "./service.ts";

/*
 * The operators' payout queue. Every transition locks the payout's row and checks its status under
 * the lock: repeating one (a double click, two operators) changes nothing and answers 409 with the
 * reason, so the second caller learns that someone else already moved it.
 */
export const adminPayoutRoutes: FastifyPluginAsyncZod<PayoutDeps> = async (app, deps) => {
  const { db, payouts } = deps;
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;
  const params = z.object({ id: z.uuid() });
  // Approving and marking paid are routine: an operator may leave the reason out.
  const approvedReason = "Approved after checks";
  const paidReason = "Paid by bank transfer";

  async function current(id: string) {
    const payout = await adminPayoutById(db, id);
    if (!payout) throw new AppError("NotFoundException", "This payout was not found.");
    return payout;
  }

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
    async (request) => adminPayouts(db, request.query),
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
      const queued = await db.transaction(async (tx) => {
        await approve(tx, payouts, id);
        await audit(tx, {
          actorId: actor.id,
          action: "payout.approve",
          targetType: "payout",
          targetId: id,
          reason,
        });
        if (payouts.kind === "manual") return false;
        // Queued with the approval: the submission exists if and only if the approval commits.
        await submitPayoutJob.enqueue(tx, { payoutId: id }, { dedupeKey: `payouts.submit:${id}` });
        return true;
      });
      if (queued) deps.pokeJobs();
      return current(id);
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
      await db.transaction(async (tx) => {
        await confirmPaid(tx, id);
        await audit(tx, {
          actorId: actor.id,
          action: "payout.paid",
          targetType: "payout",
          targetId: id,
          reason,
        });
      });
      return current(request.params.id);
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
      await db.transaction(async (tx) => {
        await failByOperator(tx, id, reason);
        await audit(tx, {
          actorId: actor.id,
          action: "payout.fail",
          targetType: "payout",
          targetId: id,
          reason,
        });
      });
      return current(request.params.id);
    },
  );
};
