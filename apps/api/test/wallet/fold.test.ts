import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { AppError } from "../../src/lib/errors.ts";
import {
  auditLedger,
  balancesOf,
  foldAllDeltas,
  type Posting,
  post,
  postMany,
  rowsOf,
} from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, type SaleFacts, splitSale } from "../../src/modules/wallet/postings.ts";
import { insertAccount } from "../support/accounts.ts";
import { dbKind, testDatabase } from "../support/app.ts";

/*
 * Sale credits appended to `ledger_balance_deltas` and folded into the running rows (decision 030):
 * no credit is lost or counted twice whatever runs at the same time, a debit sees every committed
 * credit before its check, and the audit counts the credits still waiting.
 */

let database: Database;
let creator = "";
let referrer = "";

beforeAll(async () => {
  database = await testDatabase();
  creator = (await insertAccount(database, { onboarded: true })).id;
  referrer = (await insertAccount(database, { onboarded: true })).id;
});
afterAll(() => database.close());

function sale(net: number, referred = false, creatorId = creator): SaleFacts {
  const split = splitSale(net + 100, 1000, referred ? 2000 : null);
  return {
    orderId: randomUUID(),
    creatorId,
    referrerId: referred ? referrer : null,
    partnerId: null,
    currency: "EUR",
    split,
    availableAt: new Date(),
  };
}

const postIn = (posting: Posting) => database.db.transaction((tx) => post(tx, posting));

async function balance(owner: string, account: string): Promise<number> {
  const rows = await balancesOf(database.db, owner);
  return rows.find((r) => r.account === account && r.currency === "EUR")?.balanceMinor ?? 0;
}

async function waitingCredits(owner: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from ledger_balance_deltas where owner_id = ${owner}`,
    ),
  );
  return row?.n ?? 0;
}

const expectCleanAudit = async () =>
  expect(await auditLedger(database.db)).toEqual({
    unbalancedTransactions: [],
    balancesNotMatchingEntries: [],
    negativeBalances: [],
  });

describe("sale credits folded into balances", () => {
  it("appends a sale's credits without touching the row, and the fold changes no balance", async () => {
    const facts = sale(900, true);
    await postIn(orderPaid(facts));
    expect(await waitingCredits(creator)).toBeGreaterThan(0);
    expect(await waitingCredits(referrer)).toBeGreaterThan(0);
    const before = [await balance(creator, "pending"), await balance(referrer, "affiliate_pending")];
    expect(before[0]).toBe(facts.split.netMinor);

    await database.db.transaction((tx) => foldAllDeltas(tx, 100));
    expect(await waitingCredits(creator)).toBe(0);
    expect(await waitingCredits(referrer)).toBe(0);
    expect([await balance(creator, "pending"), await balance(referrer, "affiliate_pending")]).toEqual(before);
    await expectCleanAudit();
  });

  it("folds before a debit: a release of unfolded credits passes, more than the balance is refused", async () => {
    // A creator of their own: no row yet, every credit waiting.
    const owner = (await insertAccount(database, { onboarded: true })).id;
    const first = sale(500, false, owner);
    const second = sale(700, false, owner);
    await database.db.transaction((tx) => postMany(tx, [orderPaid(first), orderPaid(second)]));
    const third = sale(50, false, owner);
    await postIn(orderPaid(third));
    const pending = await balance(owner, "pending");
    expect(pending).toBe(first.split.netMinor + second.split.netMinor + third.split.netMinor);
    expect(await waitingCredits(owner)).toBe(2);

    // The row holds nothing: this release passes only because the credits fold first.
    await postIn(holdReleased(first));
    expect(await balance(owner, "pending")).toBe(pending - first.split.netMinor);
    expect(await waitingCredits(owner)).toBe(0);

    // A release bigger than what is pending now breaks the CHECK: refused whole, nothing moved.
    await postIn(orderPaid(sale(10, false, owner)));
    const now = await balance(owner, "pending");
    const tooBig = { ...second, orderId: randomUUID(), split: { ...second.split, netMinor: now + 1 } };
    const refused = await postIn(holdReleased(tooBig)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(409);
    expect(await balance(owner, "pending")).toBe(now);
    expect(await waitingCredits(owner)).toBe(1);
    // Exactly what is pending, credits included, is not too much.
    await postIn(
      holdReleased({ ...tooBig, orderId: randomUUID(), split: { ...tooBig.split, netMinor: now } }),
    );
    expect(await balance(owner, "pending")).toBe(0);
    await expectCleanAudit();
  });

  it("the audit counts waiting credits, and catches a tampered one", async () => {
    await postIn(orderPaid(sale(300)));
    await expectCleanAudit();
    await database.db.execute(
      sql`insert into ledger_balance_deltas (owner_id, account, currency, amount_minor) values (${creator}, 'pending', 'EUR', 1)`,
    );
    const audit = await auditLedger(database.db);
    expect(audit.balancesNotMatchingEntries).toEqual([`${creator}|pending|EUR`]);
    await database.db.execute(
      sql`delete from ledger_balance_deltas where owner_id = ${creator} and amount_minor = 1`,
    );
    await expectCleanAudit();
  });

  it.runIf(dbKind === "postgres")(
    "loses no credit committed while folds and debits run on other connections",
    async () => {
      const before = await balance(creator, "pending");
      const sales = Array.from({ length: 300 }, (_, i) => sale(100 + (i % 7)));
      const released = sales.filter((_, i) => i % 5 === 0);
      let folding = true;
      const folds = (async () => {
        let runs = 0;
        while (folding || runs < 3) {
          await database.db.transaction((tx) => foldAllDeltas(tx, 100));
          runs += 1;
        }
        return runs;
      })();
      // Sales in parallel on the pool's connections, each released (a debit, folding first) once
      // committed, while the loop above folds every balance over and over.
      await Promise.all(
        sales.map(async (facts) => {
          await postIn(orderPaid(facts));
          if (released.includes(facts)) await postIn(holdReleased(facts));
        }),
      );
      folding = false;
      expect(await folds).toBeGreaterThan(3);
      const sold = sales.reduce((sum, s) => sum + s.split.netMinor, 0);
      const out = released.reduce((sum, s) => sum + s.split.netMinor, 0);
      expect(await balance(creator, "pending")).toBe(before + sold - out);
      await database.db.transaction((tx) => foldAllDeltas(tx, 100));
      expect(await waitingCredits(creator)).toBe(0);
      expect(await balance(creator, "pending")).toBe(before + sold - out);
      await expectCleanAudit();
    },
    60_000,
  );
});
