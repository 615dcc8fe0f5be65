import {
  adminPayoutListQuerySchema,
  adminPayoutListSchema,
  adminPayoutSchema,
  payoutFailBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
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
        response: { 200: adminPayoutSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const queued = await db.transaction(async (tx) => {
        await approve(tx, payouts, id);
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
        response: { 200: adminPayoutSchema },
      },
    },
    async (request) => {
      await db.transaction((tx) => confirmPaid(tx, request.params.id));
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
      await db.transaction((tx) => failByOperator(tx, request.params.id, request.body.reason));
      return current(request.params.id);
    },
  );
};
