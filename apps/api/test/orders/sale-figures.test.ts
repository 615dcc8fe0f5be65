import type { CheckoutResponse, CheckoutStatus, SaleView } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, payouts } from "../../src/db/schema/index.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger, balancesOf, post } from "../../src/modules/wallet/ledger.ts";
import { payoutFailed, payoutPaid, payoutRequested } from "../../src/modules/wallet/payout-postings.ts";
import { accountWithSession } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * A sale's page (issue 23): its VAT, and the payout that carried its net, first in first out per
 * currency; a failed payout carries nothing, a refund takes its share of the balance.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const FAR = new Date(Date.now() + 365 * 86_400_000);

beforeAll(async () => {
  ctx = await testApp();
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(() => ctx?.close());

async function paidSale(priceMinor: number, currency: "EUR" | "GBP" = "EUR") {
  const link = await helpers.newLink(creator.cookie, { priceMinor, currency, title: "Figures pack" });
  const started = (await checkout(link.token)).json<CheckoutResponse>();
  await pay(started);
  const outcome = (
    await call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)
  ).json<CheckoutStatus>();
  expect(outcome.status).toBe("paid");
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, started.orderId));
  if (!row) throw new Error("no order");
  return { id: started.orderId, net: row.netMinor ?? 0 };
}

const release = (orderId: string) => releaseHoldsAsOf(ctx.database.db, FAR, [orderId]);

async function view(orderId: string): Promise<SaleView> {
  const res = await call("GET", `/sales/${orderId}`, undefined, creator.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SaleView>();
}
const payoutOf = async (orderId: string) => (await view(orderId)).payout?.id ?? null;

/** A payout as the payouts module writes it: the row and its ledger movements, in one transaction. */
async function payout(
  amountMinor: number,
  outcome: "paid" | "failed" | "requested",
  currency = "EUR" as const,
) {
  return ctx.database.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .insert(payouts)
      .values({
        userId: creator.id,
        holderName: "Ada Lovelace",
        ibanCountry: "DE",
        ibanLast4: "3000",
        amountMinor,
        currency,
        provider: "manual",
        status: outcome,
        requestedAt: now,
        ...(outcome === "paid" ? { paidAt: now } : outcome === "failed" ? { failedAt: now } : {}),
      })
      .returning({ id: payouts.id });
    if (!row) throw new Error("no payout");
    const facts = { payoutId: row.id, userId: creator.id, currency, amountMinor };
    await post(tx, payoutRequested(facts));
    if (outcome === "paid") await post(tx, payoutPaid(facts));
    if (outcome === "failed") await post(tx, payoutFailed(facts));
    return row.id;
  });
}

async function available(currency: string): Promise<number> {
  const balances = await balancesOf(ctx.database.db, creator.id);
  return balances.find((b) => b.account === "available" && b.currency === currency)?.balanceMinor ?? 0;
}

describe(`a sale's figures and its payout (${dbKind})`, () => {
  it("shows the VAT fields and no payout while the sale is held", async () => {
    const held = await paidSale(1500);
    const sale = await view(held.id);
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, held.id));
    expect(sale).toMatchObject({
      vatMinor: row?.vatMinor,
      vatRateBps: row?.vatRateBps ?? null,
      vatCountry: row?.vatCountry ?? null,
      payout: null,
    });
    const parts = [sale.vatMinor, sale.feeMinor, sale.partnerCommissionMinor, sale.netMinor];
    expect(sale.totalMinor).toBe(parts.reduce<number>((sum, p) => sum + (p ?? 0), 0));
  });

  it("gives each sale the payout that carried it, first in first out, skipping a failed one", async () => {
    const a = await paidSale(2000);
    const b = await paidSale(3000);
    const c = await paidSale(1000);
    // A GBP sale: its own balance, untouched by the euro payouts.
    const g = await paidSale(1200, "GBP");
    await release(a.id);
    await release(b.id);
    await release(g.id);
    expect(await payoutOf(a.id)).toBeNull();

    // A failed payout of everything gave the money back: it carried nothing.
    const failed = await payout(a.net + b.net, "failed");
    expect(await payoutOf(a.id)).toBeNull();
    expect(await payoutOf(b.id)).toBeNull();

    // Exactly A's net: it carried A, not B.
    const first = await payout(a.net, "paid");
    expect(await view(a.id)).toMatchObject({ payout: { id: first, status: "paid" } });
    expect((await view(a.id)).payout?.paidAt).not.toBeNull();
    expect(await payoutOf(b.id)).toBeNull();
    expect(await payoutOf(c.id)).toBeNull();

    // Part of B: B's money is not all out yet.
    await release(c.id);
    const second = await payout(b.net - 1, "paid");
    expect(await payoutOf(b.id)).toBeNull();
    // The rest: B's last unit left with the third, C's money with it.
    const third = await payout(await available("EUR"), "requested");
    expect(await view(b.id)).toMatchObject({ payout: { id: third, status: "requested", paidAt: null } });
    expect(await payoutOf(c.id)).toBe(third);
    expect(await payoutOf(g.id)).toBeNull();
    expect([failed, second]).not.toContain(third);
    expect(await auditLedger(ctx.database.db)).toMatchObject({ negativeBalances: [] });
  });

  it("counts a refund at its own sale's place: a later sale is still paid out, the refunded one is not", async () => {
    // A fresh currency keeps this case's balance apart from the last one's.
    const d = await paidSale(2000, "GBP");
    const e = await paidSale(3000, "GBP");
    await release(d.id);
    await release(e.id);
    // D refunded in full after its release: its net leaves the available balance.
    const asked = await call(
      "POST",
      `/sales/${d.id}/refunds`,
      { amountMinor: 2000, reason: "Wrong file sent." },
      creator.cookie,
    );
    expect(asked.statusCode, asked.body).toBe(202);
    await ctx.app.services.jobs.worker.runDue();
    expect((await view(d.id)).status).toBe("refunded");
    // What is left is E's net and the earlier GBP sale's: D's refund took D's own money, not theirs.
    const all = await payout(await available("GBP"), "paid", "GBP" as "EUR");
    // D's money went back to its buyer: no payout carried it. E's left with the payout.
    expect(await payoutOf(d.id)).toBeNull();
    expect(await payoutOf(e.id)).toBe(all);
  });

  it("answers another creator's sale as not found", async () => {
    const mine = await paidSale(1000);
    const other = await accountWithSession(ctx.database, { onboarded: true });
    const res = await call("GET", `/sales/${mine.id}`, undefined, other.cookie);
    expect(res.statusCode).toBe(404);
  });
});
