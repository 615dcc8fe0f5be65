import type { Currency } from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { ledgerEntries, ledgerTransactions, payouts } from "../../src/db/schema/index.ts";
import type { MoneyModel } from "./model.ts";
import type { World } from "./model-world.ts";

/*
 * Issue 32's invariants, after every step (decision 042): money that already left is its owner's
 * debt, never the platform's loss. Nobody holds available money and a debt in one currency; every
 * debt is the model's; the platform's fees hold each sale's own share and nothing a user fell short
 * of; a dispute parks the platform's part apart and takes it from the fees only when lost; no payout
 * is created while its payee owes money.
 */

/** The references (before any ':') whose postings the platform's accounts are checked for. */
export const disputeRefs = (model: MoneyModel) => model.disputes().map(({ dispute }) => dispute.id);

export async function checkDebtsAndFees(
  world: World,
  model: MoneyModel,
  userSums: { owner: string | null; account: string; currency: Currency; total: string }[],
): Promise<void> {
  const { db } = world.ctx.database;
  const ids = world.users.map((u) => u.id);
  const orderIds = model.orders.map((o) => o.id);
  const refs = [...orderIds, ...disputeRefs(model), "none"];
  const part = sql<string>`split_part(${ledgerTransactions.reference}, ':', 1)`;
  const [platformRows, payoutRows] = await Promise.all([
    db
      .select({
        ref: part,
        kind: ledgerTransactions.kind,
        account: ledgerEntries.account,
        total: sql<string>`sum(${ledgerEntries.amountMinor})`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(inArray(ledgerEntries.account, ["platform_fees", "disputes_held"]), inArray(part, refs)))
      .groupBy(part, ledgerTransactions.kind, ledgerEntries.account),
    db.select({ id: payouts.id, userId: payouts.userId }).from(payouts).where(inArray(payouts.userId, ids)),
  ]);

  // (a) Nobody holds available money and a debt in the same currency; (c) every debt is the model's.
  const available = new Map<string, number>();
  const debts = new Map<string, number>();
  for (const s of userSums) {
    const index = ids.indexOf(s.owner ?? "");
    const key = `${index}|${s.currency}`;
    if (s.account === "available") available.set(key, Number(s.total));
    if (s.account === "debt" && Number(s.total) !== 0) debts.set(key, Number(s.total));
  }
  for (const [key, debt] of debts)
    expect((available.get(key) ?? 0) > 0 && debt < 0, `${key}: available money and a debt`).toBe(false);
  expect(debts, "debts (user|currency)").toEqual(model.debts());

  // (b) The platform's fees of each sale: its own share of what is left (and of what a dispute took),
  // never what a user could not cover; a dispute's platform part waits in `disputes_held`.
  const sum = (ref: string, account: string, kinds?: string[]) =>
    platformRows
      .filter((r) => r.ref === ref && r.account === account && (!kinds || kinds.includes(r.kind)))
      .reduce((total, r) => total + Number(r.total), 0);
  for (const [index, o] of model.orders.entries()) {
    expect(sum(o.id, "platform_fees"), `order ${index}: platform fees`).toBe(model.platformFeesOf(o));
    expect(sum(o.id, "disputes_held"), `order ${index}: disputes held`).toBe(0);
  }
  for (const [index, { dispute: d }] of model.disputes().entries()) {
    const otherKinds = platformRows
      .filter((r) => r.ref === d.id && r.account === "platform_fees" && r.kind !== "dispute_lost")
      .map((r) => r.kind);
    expect(otherKinds, `dispute ${index}: platform fees moved outside a lost dispute`).toEqual([]);
    const lost = d.status === "lost" ? 0 - d.taken.platform : 0;
    expect(sum(d.id, "platform_fees", ["dispute_lost"]), `dispute ${index}: platform fees`).toBe(lost);
    // Taken out of the sale's platform part while the bank decides (a debit of the holding account).
    const held = d.status === "open" ? 0 - (d.taken.vat + d.taken.platform) : 0;
    expect(sum(d.id, "disputes_held"), `dispute ${index}: disputes held`).toBe(held);
  }

  // (d) Every payout of the run's users is one the model expected, none made while its payee owed.
  expect(payoutRows.map((p) => p.id).sort(), "payouts").toEqual(model.payouts.map((p) => p.id).sort());
  const owing = model.payouts.filter((p) => p.owedWhenCreated).map((p) => `${p.id} of u${p.user}`);
  expect(owing, "payouts created while their payee owed money").toEqual([]);
}
