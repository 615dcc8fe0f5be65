import { randomUUID } from "node:crypto";
import type { Currency } from "@salelink/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { AppError } from "../../src/lib/errors.ts";
import {
  auditLedger,
  balanceLookup,
  balancesOf,
  LedgerImbalanceError,
  PLATFORM,
  type Posting,
  post,
  rowsOf,
} from "../../src/modules/wallet/ledger.ts";
import { payoutFailed, payoutPaid, payoutRequested } from "../../src/modules/wallet/payout-postings.ts";
import {
  commissionClaimed,
  coverShortfall,
  holdReleased,
  orderPaid,
  orderRefunded,
  type SaleFacts,
  shareOf,
  splitSale,
} from "../../src/modules/wallet/postings.ts";
import { insertAccount } from "../support/accounts.ts";
import { testDatabase } from "../support/app.ts";

let database: Database;
const users: string[] = [];

beforeAll(async () => {
  database = await testDatabase();
  for (let i = 0; i < 4; i++) users.push((await insertAccount(database, { onboarded: true })).id);
});
afterAll(() => database.close());

const postIn = (posting: Posting) => database.db.transaction((tx) => post(tx, posting));

async function balance(holder: string, account: string, currency: Currency): Promise<number> {
  const rows = await balancesOf(database.db, holder);
  return rows.find((r) => r.account === account && r.currency === currency)?.balanceMinor ?? 0;
}

function sale(overrides: Partial<SaleFacts> = {}): SaleFacts {
  return {
    orderId: randomUUID(),
    creatorId: users[0] ?? "",
    referrerId: null,
    partnerId: null,
    currency: "EUR",
    split: splitSale(1000, 1000, null),
    availableAt: new Date(Date.now() + 7 * 86_400_000),
    ...overrides,
  };
}

describe("shares and splits", () => {
  it("rounds half up in integers", () => {
    expect(shareOf(1005, 1000)).toBe(101); // 100.5 → 101
    expect(shareOf(1004, 1000)).toBe(100);
    expect(shareOf(5, 2000)).toBe(1); // 1.0
    expect(shareOf(2, 2500)).toBe(1); // 0.5 → 1
    expect(shareOf(0, 1000)).toBe(0);
    expect(() => shareOf(1.5, 1000)).toThrow(RangeError);
  });

  it("splits a sale into fee, commission and net that add up", () => {
    expect(splitSale(1999, 1000, 2000)).toEqual({
      grossMinor: 1999,
      vatMinor: 0,
      feeMinor: 200,
      commissionMinor: 40,
      partnerCommissionMinor: 0,
      netMinor: 1799,
    });
    expect(splitSale(1999, 1000, null).commissionMinor).toBe(0);
  });

  it("takes a partner's commission out of the creator's share, rounded half up, never past it (decision 035)", () => {
    const split = (gross: number, partnerBps: number) => splitSale(gross, 1000, null, partnerBps);
    // 1 cent at 33 %: the fee rounds to 0, the commission to 0 (0.33).
    expect(split(1, 3300)).toMatchObject({ feeMinor: 0, partnerCommissionMinor: 0, netMinor: 1 });
    // 2 cents at 33 %: 0.66 rounds to 1.
    expect(split(2, 3300)).toMatchObject({ feeMinor: 0, partnerCommissionMinor: 1, netMinor: 1 });
    // 5 cents at 90 %: the fee rounds up to 1 (0.5) and 4.5 would round to 5: capped at the creator's 4.
    expect(split(5, 9000)).toMatchObject({ feeMinor: 1, partnerCommissionMinor: 4, netMinor: 0 });
    // A promo code's awkward total: 1,333 at 33 % is 439.89, so 440.
    expect(split(1333, 3300)).toMatchObject({ feeMinor: 133, partnerCommissionMinor: 440, netMinor: 760 });
    // With a platform referrer too: their share comes out of the fee, the partner's out of the creator's.
    expect(splitSale(2000, 1000, 2000, 1000)).toEqual({
      grossMinor: 2000,
      vatMinor: 0,
      feeMinor: 200,
      commissionMinor: 40,
      partnerCommissionMinor: 200,
      netMinor: 1600,
    });
    // Every amount is a whole number and the parts add up, for any gross and rate.
    for (let gross = 1; gross <= 3000; gross += 7) {
      for (const bps of [100, 3300, 3333, 5000, 9000]) {
        const s = split(gross, bps);
        expect(s.feeMinor + s.partnerCommissionMinor + s.netMinor).toBe(gross);
        expect(s.netMinor).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(s.partnerCommissionMinor)).toBe(true);
      }
    }
  });
});

describe("posting", () => {
  it("refuses entries that do not balance, zero amounts, fractions and a user's money on the platform", async () => {
    const base = { kind: "test" as Posting["kind"], reference: randomUUID() };
    const bad: Posting["entries"][] = [
      [
        { account: "available", ownerId: users[0] ?? "", currency: "EUR", amountMinor: 10 },
        { account: "provider", ownerId: null, currency: "EUR", amountMinor: -9 },
      ],
      [
        { account: "available", ownerId: users[0] ?? "", currency: "EUR", amountMinor: 10 },
        { account: "provider", ownerId: null, currency: "USD", amountMinor: -10 },
      ],
      [
        { account: "available", ownerId: users[0] ?? "", currency: "EUR", amountMinor: 0.5 },
        { account: "provider", ownerId: null, currency: "EUR", amountMinor: -0.5 },
      ],
      [
        { account: "available", ownerId: null, currency: "EUR", amountMinor: 10 },
        { account: "provider", ownerId: null, currency: "EUR", amountMinor: -10 },
      ],
    ];
    for (const entries of bad)
      await expect(postIn({ ...base, entries })).rejects.toBeInstanceOf(LedgerImbalanceError);
    expect(await auditLedger(database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("posts an event once however often it is posted, also concurrently", async () => {
    const facts = sale({ creatorId: users[1] ?? "" });
    const results = await Promise.all(Array.from({ length: 10 }, () => postIn(orderPaid(facts))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
    expect(await balance(users[1] ?? "", "pending", "EUR")).toBe(900);
  });

  it("never lets a spendable balance go negative, and rolls the whole posting back", async () => {
    const user = users[2] ?? "";
    const facts = sale({ creatorId: user });
    await postIn(orderPaid(facts));
    await postIn(holdReleased(facts));
    expect(await balance(user, "available", "EUR")).toBe(900);
    const tooMuch = payoutRequested({
      payoutId: randomUUID(),
      userId: user,
      currency: "EUR",
      amountMinor: 901,
    });
    const error = await postIn(tooMuch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(409);
    expect(await balance(user, "available", "EUR")).toBe(900);
    expect(await balance(user, "in_transit", "EUR")).toBe(0);
    // Nothing of the refused posting remains, not even its transaction row.
    const rows = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from ledger_transactions where reference = ${tooMuch.reference}`,
      ),
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("refunds a released sale from what is left; what was withdrawn is the creator's debt", async () => {
    const user = users[3] ?? "";
    const facts = sale({ creatorId: user });
    await postIn(orderPaid(facts));
    await postIn(holdReleased(facts));
    await postIn(
      payoutRequested({ payoutId: randomUUID(), userId: user, currency: "EUR", amountMinor: 600 }),
    );
    const fees = await balance(PLATFORM, "platform_fees", "EUR");
    const lookup = await balanceLookup(database.db, [user, randomUUID()]);
    expect(lookup(user, "available", "EUR")).toBe(300);
    expect(lookup(user, "available", "USD")).toBe(0);
    const reversal = orderRefunded(facts, true);
    await postIn({
      ...reversal,
      entries: coverShortfall(reversal.entries, lookup, { commission: false, partner: false }),
    });
    expect(await balance(user, "available", "EUR")).toBe(0);
    expect(await balance(user, "in_transit", "EUR")).toBe(600);
    expect(await balance(user, "debt", "EUR")).toBe(-600);
    // The platform gives back its own fee, nothing of what was withdrawn.
    expect(await balance(PLATFORM, "platform_fees", "EUR")).toBe(fees - 100);
  });

  it("is append-only: entries and transactions cannot be changed or deleted", async () => {
    await postIn(orderPaid(sale()));
    await expect(database.db.execute(sql`update ledger_entries set amount_minor = 1`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from ledger_transactions`)).rejects.toThrow();
  });
});

/** A small deterministic PRNG (mulberry32): a failing sequence is replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

describe("the ledger under random sequences", () => {
  const seed = Number(process.env.LEDGER_SEED ?? Math.floor(Math.random() * 2 ** 31));

  it(`stays balanced and never negative (replay with LEDGER_SEED=${seed})`, async () => {
    const rand = prng(seed);
    const currencies: Currency[] = ["EUR", "USD", "GBP"];
    type Order = { facts: SaleFacts; released: boolean; refunded: boolean };
    const orders: Order[] = [];
    const payouts: { facts: Parameters<typeof payoutPaid>[0]; open: boolean }[] = [];
    const posted: Posting[] = [];
    const log: string[] = [];
    const attempt = async (name: string, posting: Posting): Promise<boolean> => {
      try {
        const { created } = await postIn(posting);
        log.push(`${name} ${created ? "posted" : "replayed"}`);
        if (created) posted.push(posting);
        return created;
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 409) {
          log.push(`${name} refused (insufficient funds)`);
          return false;
        }
        throw new Error(
          `seed ${seed}, step ${log.length} (${name}): ${String(error)}\n${log.slice(-10).join("\n")}`,
        );
      }
    };

    for (let step = 0; step < 250; step++) {
      const op = rand.int(0, 7);
      const user = rand.pick(users) ?? "";
      const currency = rand.pick(currencies) ?? "EUR";
      if (op <= 1 || orders.length === 0) {
        const referrer = rand.chance(0.5) ? (rand.pick(users.filter((u) => u !== user)) ?? null) : null;
        const facts = sale({
          creatorId: user,
          referrerId: referrer,
          partnerId: null,
          currency,
          split: splitSale(rand.int(100, 500_000), 1000, referrer ? 2000 : null),
        });
        if (await attempt("pay", orderPaid(facts))) orders.push({ facts, released: false, refunded: false });
      } else if (op === 2) {
        const order = rand.pick(orders.filter((o) => !o.released && !o.refunded));
        if (order && (await attempt("release", holdReleased(order.facts)))) order.released = true;
      } else if (op === 3) {
        const order = rand.pick(orders.filter((o) => !o.refunded));
        if (order && (await attempt("refund", orderRefunded(order.facts, order.released))))
          order.refunded = true;
      } else if (op === 4) {
        const claimable = await balance(user, "affiliate_claimable", currency);
        if (claimable > 0) {
          await attempt(
            "claim",
            commissionClaimed({ claimId: randomUUID(), userId: user, currency, amountMinor: claimable }),
          );
        }
      } else if (op === 5) {
        const available = await balance(user, "available", currency);
        // Sometimes more than there is: the ledger must refuse it.
        const amount = rand.int(1, Math.max(1, available + (rand.chance(0.3) ? 500 : 0)));
        const facts = { payoutId: randomUUID(), userId: user, currency, amountMinor: amount };
        if (await attempt("payout", payoutRequested(facts))) payouts.push({ facts, open: true });
      } else if (op === 6) {
        const payout = rand.pick(payouts.filter((p) => p.open));
        if (payout) {
          const posting = rand.chance(0.5) ? payoutPaid(payout.facts) : payoutFailed(payout.facts);
          if (await attempt("settle payout", posting)) payout.open = false;
        }
      } else {
        // A redelivered event: posting it again changes nothing.
        const again = rand.pick(posted);
        if (again) expect(await attempt("replay", again)).toBe(false);
      }
    }

    expect(await auditLedger(database.db), `seed ${seed}`).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
    expect(log.some((l) => l.startsWith("pay posted"))).toBe(true);
  }, 120_000);
});
