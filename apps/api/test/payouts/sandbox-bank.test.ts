import type { Payout } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { payoutEvents } from "../../src/db/schema/index.ts";
import { sandboxPayoutOutcomeJob } from "../../src/providers/payouts/sandbox/jobs.ts";
import { SANDBOX_FAILING_LAST4 } from "../../src/providers/payouts/sandbox/provider.ts";
import { type TestContext, testApp, testConfig } from "../support/app.ts";
import { payoutCalls } from "./payout-fixtures.ts";

/*
 * The sandbox payout provider (decision 041), the default of a development run: nothing leaves,
 * the sandbox's bank answers each submitted payout through the payouts module's own event path:
 * paid, or failed with the bank's reason for the test account ending 1116.
 */

let ctx: TestContext;
let fixtures: ReturnType<typeof payoutCalls>;
const runJobs = async () => {
  // The submission queues the bank's answer: a second pass runs it.
  await ctx.app.services.jobs.worker.runDue();
  await ctx.app.services.jobs.worker.runDue();
};

beforeAll(async () => {
  ctx = await testApp({
    PAYOUT_PROVIDER: "sandbox",
    PAYOUT_SANDBOX_SETTLE_SECONDS: "0",
    PAYOUT_REVIEW_RULES: "none",
  });
  fixtures = payoutCalls(ctx);
});
afterAll(() => ctx?.close());

async function request(cookie: string, bankAccountId: string, currency: "EUR" | "GBP") {
  const res = await fixtures.call("POST", "/profile/payout", cookie, { bankAccountId, currency });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Payout>();
}

describe("the sandbox's bank", () => {
  it("pays a payout that no rule holds without anyone: approved, sent, paid, each step on the timeline", async () => {
    const creator = await fixtures.creator({ balance: 5000 });
    const payout = await request(creator.cookie, creator.bank.id, "EUR");
    expect(payout.status).toBe("processing");
    await runJobs();

    const detail = await fixtures.detail(creator.cookie, payout.id);
    expect(detail.status).toBe("paid");
    expect(detail.steps.map((s) => s.step)).toEqual(["requested", "approved", "sent", "paid"]);
    expect(detail.steps[1]?.detail).toMatchObject({ by: "rules" });
    expect(detail.bankReference).toContain(payout.id);
    expect(await fixtures.balance(creator.id, "in_transit")).toBe(0);
    expect(await fixtures.balance(creator.id, "available")).toBe(0);

    // The bank's answer delivered again is applied once.
    await sandboxPayoutOutcomeJob.enqueue(ctx.database.db, {
      providerPayoutId: `sbx_po_${payout.id}`,
      payoutId: payout.id,
      type: "paid",
    });
    await runJobs();
    const events = await ctx.database.db
      .select()
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, payout.id));
    expect(events).toHaveLength(1);
    await fixtures.ledgerHolds();
  });

  it(`refuses the test account ending ${SANDBOX_FAILING_LAST4}: the payout fails with the bank's reason and the money is back`, async () => {
    const creator = await fixtures.creator();
    const gb = await fixtures.addBank(creator.cookie, {
      kind: "gb",
      holderName: "Ada Lovelace",
      sortCode: "200000",
      accountNumber: `0001${SANDBOX_FAILING_LAST4}`,
    });
    await fixtures.credit(creator.id, 3000, "GBP");
    const available = await fixtures.balance(creator.id, "available", "GBP");
    const payout = await request(creator.cookie, gb.id, "GBP");
    await runJobs();

    const detail = await fixtures.detail(creator.cookie, payout.id);
    expect(detail.status).toBe("failed");
    expect(detail.failureReason).toMatch(/could not find this account/);
    expect(detail.steps.at(-1)).toMatchObject({ step: "failed" });
    expect(await fixtures.balance(creator.id, "available", "GBP")).toBe(available);
    await fixtures.ledgerHolds();
  });

  it("is refused in production unless sandbox providers are allowed on purpose", async () => {
    const production = {
      NODE_ENV: "production",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      PAYOUT_PROVIDER: "sandbox",
    };
    await expect(buildApp({ config: testConfig(production), db: ctx.database.db })).rejects.toThrow(
      /payouts \(sandbox\)/,
    );
  });
});
