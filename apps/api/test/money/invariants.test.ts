import { afterAll, beforeAll, describe, it } from "vitest";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { moneyCommands } from "./model-arbitraries.ts";
import { checkMoneyProperty, moneySettings, newRun, runTimeout, seed } from "./model-run.ts";

/*
 * Money invariants, model-based (issue 9): random sequences of purchases, webhook redeliveries, hold
 * releases, claims, refunds, withdrawals and scheduled payouts (issue 23: in EUR, GBP and USD,
 * each to an account of its currency), chargebacks and debts (issue 32: money that already left is
 * its owner's debt) against the real API, every invariant checked after every step
 * (money/model-world.ts, money/model-debt-invariants.ts). Each run starts from fresh accounts in one
 * database. Payouts are the operator's (the manual provider); money/invariants-connect.test.ts runs
 * them through Stripe Connect. Seeds, replays and sizes: money/model-run.ts.
 */

let ctx: TestContext;
let admin: string;

describe("money invariants (model-based)", () => {
  beforeAll(async () => {
    ctx = await testApp(moneySettings);
    admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
  });
  afterAll(() => ctx?.close());

  it(`hold after every step of random money sequences (seed ${seed})`, { timeout: runTimeout() }, () =>
    checkMoneyProperty({
      file: "test/money/invariants.test.ts",
      commands: moneyCommands,
      setup: async () => {
        const { model, world } = await newRun(ctx, admin);
        return { model, real: world };
      },
    }),
  );
});
