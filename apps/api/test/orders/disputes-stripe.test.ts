import type { CheckoutResponse, SaleView } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputes, jobs } from "../../src/db/schema/index.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import { accountWithSession, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import {
  confirmationToken,
  deliverFakeStripeEvents,
  type FakeStripe,
  stripePaymentsApp,
} from "../support/stripe-payments.ts";

/*
 * Stripe's chargebacks (issue 32): charge.dispute.* events from a local fake Stripe, each carrying the
 * whole dispute; the evidence job submits to Stripe's dispute; a lost dispute closes the sale, a won
 * one with its fee returned gives everything back.
 */

const WEBHOOK_SECRET = "whsec_fake_disputes_secret";
let fake: FakeStripe;
let ctx: TestContext;
let creator: { id: string; cookie: string };
const helpers = checkoutHelpers(() => ctx);

beforeAll(async () => {
  ({ fake, ctx } = await stripePaymentsApp(WEBHOOK_SECRET, { DISPUTE_EVIDENCE_DELAY_MINUTES: "0" }));
  creator = await accountWithSession(ctx.database, { onboarded: true });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const deliverEvents = () => deliverFakeStripeEvents(ctx, fake, WEBHOOK_SECRET);

/** A €30 sale paid with a card through the server-side confirmation (decision 040). */
async function paid(): Promise<CheckoutResponse> {
  const link = await helpers.newLink(creator.cookie, { priceMinor: 3000 });
  const started = (
    await helpers.checkout(link.token, { email: uniqueEmail("buyer") })
  ).json<CheckoutResponse>();
  const token = await confirmationToken(fake, "pm_card_visa");
  const confirmed = await helpers.call("POST", `/checkout/${started.orderId}/confirm`, {
    secret: started.checkoutSecret,
    confirmationToken: token,
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  await deliverEvents();
  return started;
}

const view = async (orderId: string) =>
  (await helpers.call("GET", `/sales/${orderId}`, undefined, creator.cookie)).json<SaleView>();

describe(`Stripe's chargebacks (${dbKind})`, () => {
  it("holds at once, submits the evidence to Stripe once, and keeps the sale when the dispute is lost", async () => {
    const sold = await paid();
    const remote = fake.dispute(sold.paymentId, { reason: "fraudulent" });
    await deliverEvents();
    const [row] = await ctx.database.db.select().from(disputes).where(eq(disputes.orderId, sold.orderId));
    expect(row).toMatchObject({ provider: "stripe", providerDisputeId: remote.id, feeMinor: 1500 });
    // The evidence job ran (no delay here): Stripe holds our fields, submitted.
    const sent = fake.disputes.get(String(remote.id));
    expect(sent).toMatchObject({ status: "under_review", evidence_details: { submission_count: 1 } });
    const evidence = (sent?.evidence ?? {}) as Record<string, unknown>;
    expect(String(evidence.access_activity_log)).toContain("Payment of €30.00 succeeded");
    const submissions = fake.requests.filter(
      (r) => r.path === `/v1/disputes/${remote.id}` && r.method === "POST",
    );
    expect(submissions).toHaveLength(1);
    expect(submissions[0]?.idempotencyKey).toBe(`dispute-evidence-${row?.id}`);
    // The job again (a retry) sends nothing more.
    await ctx.database.db
      .update(jobs)
      .set({ status: "queued", runAt: new Date() })
      .where(eq(jobs.dedupeKey, `dispute-evidence:${row?.id}`));
    await ctx.app.services.jobs.worker.runDue();
    expect(
      fake.requests.filter((r) => r.path === `/v1/disputes/${remote.id}` && r.method === "POST"),
    ).toHaveLength(1);
    await deliverEvents();
    expect((await view(sold.orderId)).disputes[0]).toMatchObject({ status: "under_review" });

    fake.closeDispute(String(remote.id), "lost");
    await deliverEvents();
    expect(await view(sold.orderId)).toMatchObject({ status: "refunded", disputedMinor: 3000 });
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("gives back the held share and the fee Stripe returned when the dispute is won; an inquiry moves nothing", async () => {
    const sold = await paid();
    const inquiry = fake.dispute(sold.paymentId, { inquiry: true });
    await deliverEvents();
    expect((await view(sold.orderId)).disputes[0]).toMatchObject({ status: "inquiry", amountMinor: 3000 });
    expect((await view(sold.orderId)).disputedMinor).toBe(0);
    fake.closeDispute(String(inquiry.id), "won");
    await deliverEvents();
    expect((await view(sold.orderId)).disputes[0]).toMatchObject({ status: "inquiry_closed" });

    const other = await paid();
    const remote = fake.dispute(other.paymentId);
    await deliverEvents();
    expect((await view(other.orderId)).disputedMinor).toBe(3000);
    fake.closeDispute(String(remote.id), "won", { feeReturned: true });
    await deliverEvents();
    const after = await view(other.orderId);
    expect(after).toMatchObject({ status: "paid", disputedMinor: 0 });
    expect(after.disputes[0]).toMatchObject({ status: "won", feeMinor: 0 });
  });
});
