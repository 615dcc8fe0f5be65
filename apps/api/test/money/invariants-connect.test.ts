import { afterAll, beforeAll, describe, it } from "vitest";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { startFakeStripe } from "../support/fake-stripe.ts";
import { connectCommands, stripePaths } from "./model-connect-commands.ts";
import { connectSettings, type FakeStripe, newConnectRun } from "./model-connect-world.ts";
import { checkMoneyProperty, moneySettings, runTimeout, seed } from "./model-run.ts";

/*
 * The money model with payouts through Stripe Connect (issue 32): the runs of
 * money/invariants.test.ts (sales, releases, claims, refunds, chargebacks, withdrawals, operators'
 * steps), paid out by transfers to the payees' connected accounts at a fake Stripe, with the
 * submission job and Stripe's outcomes as operations of their own (money/model-connect-commands.ts):
 * paid, failed (its transfer taken back before the money returns), failed before the money is back
 * on the account (refused, then applied), refused after the transfer, and submitted while the payee
 * owes money (failed back, nothing transferred). After every step, besides every invariant of the
 * manual run: what Stripe holds of each payout and each connected account, against the model
 * (money/model-connect-world.ts). Seeds and replays as the other run's (money/model-run.ts).
 */

/**
 * Commands per run at most: a payout reaches Stripe only after a sale, its release, a withdrawal and
 * the submission job, so runs are longer than the manual run's.
 */
const COMMANDS = 40;

let fake: FakeStripe;
let ctx: TestContext;
let admin: string;

describe("money invariants with Stripe Connect payouts (model-based)", () => {
  beforeAll(async () => {
    fake = await startFakeStripe();
    ctx = await testApp({ ...moneySettings, ...connectSettings(fake) });
    admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it(
    `hold after every step of random sequences paid out through Stripe (seed ${seed})`,
    {
      timeout: runTimeout(COMMANDS),
    },
    () =>
      checkMoneyProperty({
        file: "test/money/invariants-connect.test.ts",
        commands: connectCommands,
        maxCommands: COMMANDS,
        setup: () => newConnectRun(ctx, admin, fake),
        report: () => `Stripe: ${[...stripePaths].map(([path, n]) => `${path} ${n}`).join(", ")}`,
      }),
  );
});
