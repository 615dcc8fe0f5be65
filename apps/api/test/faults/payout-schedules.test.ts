import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { ledgerBalances, payouts } from "../../src/db/schema/index.ts";
import { rowsOf } from "../../src/modules/wallet/ledger.ts";
import { directSessionCookie, insertAccount, insertApprovedIdentity } from "../support/accounts.ts";
import { dbKind, testDatabase } from "../support/app.ts";
import { creditReleasedSale } from "../support/ledger.ts";
import { ledgerProblems, waitForJobs } from "./checks.ts";
import {
  ApiProcess,
  buildServer,
  expectStatus,
  faultSeed,
  freePort,
  http,
  type ServerBundle,
  seededRandom,
  sleep,
} from "./helpers.ts";

/*
 * Issue 23: a schedule's payout happens once per period, however many API instances run it and
 * whatever dies in the middle. Two API processes on one database run the same creators' weekly
 * schedules at once (the run their job makes, through the development route, so the test does not
 * wait for the next tick); one is killed with SIGKILL while runs are in flight, started again, and
 * both run them again. Each creator ends with one payout per currency for the week, and a ledger
 * in which nothing was posted twice or lost. PostgreSQL only, like the other process faults.
 */

const seed = faultSeed();
const random = seededRandom(seed);
const CREATORS = 8;
const IBAN = "DE89370400440532013000";
const UK = { kind: "gb", holderName: "Ada Lovelace", sortCode: "200000", accountNumber: "55779911" };

let database: Database & { url?: string };
let bundle: ServerBundle | undefined;
let instances: ApiProcess[] = [];
let creators: { id: string; cookie: string }[] = [];
let answered = 0;

/** One instance runs one creator's schedule now; null when the instance died under the call. */
async function runOn(instance: ApiProcess, userId: string) {
  const answer = await http(instance.baseUrl, "POST", "/dev/payouts/schedules/run", { body: { userId } });
  if (answer) {
    answered += 1;
    expectStatus(answer, [200], "schedule run");
  }
  return answer;
}

describe.skipIf(dbKind !== "postgres")("payout schedules across two API instances, one killed midway", () => {
  beforeAll(async () => {
    const [db, built] = await Promise.all([testDatabase(), buildServer()]);
    database = db;
    bundle = built;
    if (!database.url) throw new Error("no database url");
    const env = { PAYOUT_REVIEW_RULES: "none" };
    const url = database.url;
    instances = [
      new ApiProcess({ bundle, databaseUrl: url, port: await freePort(), env }),
      new ApiProcess({ bundle, databaseUrl: url, port: await freePort(), env }),
    ];
    await Promise.all(instances.map((instance) => instance.start()));
    const [first] = instances;
    if (!first) throw new Error("no instance");
    const weekday = ((new Date().getUTCDay() + 6) % 7) + 1;
    creators = await Promise.all(
      Array.from({ length: CREATORS }, async () => {
        const account = await insertAccount(database, { onboarded: true });
        await insertApprovedIdentity(database, account.id);
        const cookie = await directSessionCookie(database, account.id);
        for (const body of [{ holderName: "Ada Lovelace", iban: IBAN }, UK]) {
          const added = await http(first.baseUrl, "POST", "/profile/bank-accounts", { body, cookie });
          expectStatus(added, [201], "bank account");
        }
        const saved = await fetch(`${first.baseUrl}/profile/payout/schedule`, {
          method: "PUT",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ kind: "weekly", weekday }),
        });
        expect(saved.status).toBe(200);
        await creditReleasedSale(database.db, account.id, 5000, "EUR");
        await creditReleasedSale(database.db, account.id, 3000, "GBP");
        return { id: account.id, cookie };
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.dispose()));
    await bundle?.remove();
    await database?.close();
  });

  it("makes one payout per creator, currency and week, and loses or doubles nothing", async () => {
    onTestFailed(() => {
      console.error(`FAULT_SEED=${seed}\n${instances.map((i) => i.log).join("\n")}`);
    });
    const [a, b] = instances;
    if (!a || !b) throw new Error("no instances");

    // Both instances run every creator's schedule at once, again and again, until one is killed.
    const target = random.between(2, CREATORS);
    const delay = random.between(0, 40);
    const traffic = Promise.all(
      creators.map(async (c) => {
        for (let round = 0; round < 3; round++) {
          const [fromA] = await Promise.all([runOn(a, c.id), runOn(b, c.id)]);
          if (!fromA) return;
        }
      }),
    );
    const bound = Date.now() + 20_000;
    while (answered < target && Date.now() < bound) await sleep(2);
    await sleep(delay);
    await a.kill();
    await traffic;
    await a.start();

    // After the restart, both run them once more: every period is already taken.
    await Promise.all(creators.flatMap((c) => [runOn(a, c.id), runOn(b, c.id)]));

    for (const c of creators) {
      const rows = await database.db
        .select({ currency: payouts.currency, period: payouts.schedulePeriod, amount: payouts.amountMinor })
        .from(payouts)
        .where(and(eq(payouts.userId, c.id), eq(payouts.origin, "schedule")));
      expect(rows.map((r) => r.currency).sort(), c.id).toEqual(["EUR", "GBP"]);
      expect(new Set(rows.map((r) => r.period)).size, c.id).toBe(1);
      expect(rows.map((r) => r.amount).sort((x, y) => x - y)).toEqual([3000, 5000]);
      const available = await database.db
        .select({ balance: ledgerBalances.balanceMinor })
        .from(ledgerBalances)
        .where(and(eq(ledgerBalances.ownerId, c.id), eq(ledgerBalances.account, "available")));
      expect(available.every((row) => row.balance === 0)).toBe(true);
    }
    const [steps] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from payout_steps s join payouts p on p.id = s.payout_id
            where p.origin = 'schedule' and s.step = 'scheduled'`,
      ),
    );
    expect(steps?.n).toBe(CREATORS * 2);
    expect(await waitForJobs(database.db, 15_000)).toEqual([]);
    expect(await ledgerProblems(database.db)).toEqual([]);
  }, 120_000);
});
