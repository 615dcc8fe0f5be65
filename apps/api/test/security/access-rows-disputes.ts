import { checkoutStatusSchema } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { disputes } from "../../src/db/schema/index.ts";
import { send, type World } from "./access-fixtures.ts";
import { freshSale } from "./access-fresh.ts";
import { adminOnly, open, owner, type Row } from "./access-rows.ts";

/*
 * Debts and chargebacks (issue 32): the admin's debts and disputes, the creator's note on a dispute
 * of their sale, and the sandbox bank's controls (the buyer's "dispute this payment" by the order's
 * token, the operator's decision).
 */

/** A paid sale of the shared creator's, its order token. */
async function paidOrderToken(world: World): Promise<{ orderId: string; token: string }> {
  const started = await freshSale(world);
  const res = await send(world.ctx, "GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`);
  const token = checkoutStatusSchema.parse(res.json()).orderToken;
  if (!token) throw new Error("order not paid");
  return { orderId: started.orderId, token };
}

/** A sale of the shared creator's disputed through the sandbox bank: ours and the bank's ids. */
async function disputedSale(world: World): Promise<Record<string, string>> {
  const { orderId, token } = await paidOrderToken(world);
  const opened = await send(world.ctx, "POST", `/sandbox/orders/${token}/dispute`, {
    payload: { reason: "fraudulent" },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  await world.ctx.app.services.jobs.worker.runDue();
  const [row] = await world.ctx.database.db.select().from(disputes).where(eq(disputes.orderId, orderId));
  if (!row) throw new Error("dispute not applied");
  return { orderId, id: row.id, bankId: row.providerDisputeId };
}

export const disputeRows: Record<string, Row> = {
  "GET /admin/debts": { expect: adminOnly(200), request: () => ({ url: "/admin/debts" }) },
  "POST /admin/debts/write-off": {
    // Nobody owes anything in francs: the admin reaches the rule, the others never do.
    expect: { ...adminOnly(409) },
    request: ({ world }) => ({
      url: "/admin/debts/write-off",
      payload: { userId: world.creator.id, currency: "CHF", reason: "Checked by the access matrix." },
    }),
  },
  "GET /admin/disputes": { expect: adminOnly(200), request: () => ({ url: "/admin/disputes" }) },
  "PUT /sales/:id/disputes/:disputeId/note": {
    expect: owner(200),
    prepare: disputedSale,
    request: ({ prepared }) => ({
      url: `/sales/${prepared.orderId}/disputes/${prepared.id}/note`,
      payload: { note: "The buyer downloaded the file twice." },
    }),
  },
  "POST /sandbox/orders/:token/dispute": {
    // The order's token is the buyer's key, as for its page: each caller disputes a sale of its own.
    expect: open(201),
    request: async ({ world }) => ({
      url: `/sandbox/orders/${(await paidOrderToken(world)).token}/dispute`,
      payload: { reason: "product_not_received" },
    }),
  },
  "POST /admin/sandbox/disputes/:id/decide": {
    expect: adminOnly(204),
    prepare: disputedSale,
    request: ({ prepared }) => ({
      url: `/admin/sandbox/disputes/${prepared.bankId}/decide`,
      payload: { outcome: "won" },
    }),
  },
};
