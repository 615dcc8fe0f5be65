import type { AdminOverview, Currency } from "@salelink/contracts";
import { and, count, eq, gte, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import {
  identitySessions,
  ledgerEntries,
  orders,
  payouts,
  reports,
  users,
} from "../../../db/schema/index.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session the person finished and the provider has not decided yet. */
const awaitingDecision = ["submitted", "review"] as const;

const utcDay = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`;

/**
 * GET /admin/overview: the period is the last `days` UTC days, today included. A sale is an order
 * paid in the period (a later refund does not remove it from the day it happened); fees are the
 * platform_fees ledger account's movements, so a refund's reversal lowers them on its own day.
 */
export async function overview(db: DbOrTx, days: number, now = new Date()): Promise<AdminOverview> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);

  const saleDay = utcDay(orders.paidAt);
  const feeDay = utcDay(ledgerEntries.createdAt);
  const accountDay = utcDay(users.createdAt);
  const [sales, fees, accounts, pending, openReports, awaiting] = await Promise.all([
    db
      .select({
        day: saleDay,
        currency: orders.currency,
        count: sql<number>`count(*)::int`,
        gross: sql<string>`sum(${orders.totalMinor})`,
      })
      .from(orders)
      .where(and(isNotNull(orders.paidAt), gte(orders.paidAt, since)))
      .groupBy(saleDay, orders.currency),
    db
      .select({
        day: feeDay,
        currency: ledgerEntries.currency,
        amount: sql<string>`sum(${ledgerEntries.amountMinor})`,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.account, "platform_fees"),
          isNull(ledgerEntries.ownerId),
          gte(ledgerEntries.createdAt, since),
        ),
      )
      .groupBy(feeDay, ledgerEntries.currency),
    db
      .select({ day: accountDay, n: sql<number>`count(*)::int` })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(accountDay),
    db
      .select({
        currency: payouts.currency,
        count: sql<number>`count(*)::int`,
        amount: sql<string>`sum(${payouts.amountMinor})`,
      })
      .from(payouts)
      .where(inArray(payouts.status, ["requested", "processing"]))
      .groupBy(payouts.currency),
    db.select({ n: count() }).from(reports).where(eq(reports.status, "open")),
    db
      .select({ n: count() })
      .from(identitySessions)
      .where(inArray(identitySessions.status, [...awaitingDecision])),
  ]);

  const daily: AdminOverview["daily"] = [];
  const byDay = new Map<string, AdminOverview["daily"][number]>();
  for (let t = since.getTime(); t <= today; t += DAY_MS) {
    const row = { date: new Date(t).toISOString().slice(0, 10), sales: [], fees: [], newAccounts: 0 };
    daily.push(row);
    byDay.set(row.date, row);
  }
  const salesTotals = new Map<Currency, { currency: Currency; count: number; gross: number }>();
  for (const s of sales) {
    const gross = Number(s.gross);
    byDay.get(s.day)?.sales.push({ currency: s.currency, count: s.count, gross });
    const total = salesTotals.get(s.currency) ?? { currency: s.currency, count: 0, gross: 0 };
    total.count += s.count;
    total.gross += gross;
    salesTotals.set(s.currency, total);
  }
  const feeTotals = new Map<Currency, { currency: Currency; amount: number }>();
  for (const f of fees) {
    const amount = Number(f.amount);
    byDay.get(f.day)?.fees.push({ currency: f.currency, amount });
    const total = feeTotals.get(f.currency) ?? { currency: f.currency, amount: 0 };
    total.amount += amount;
    feeTotals.set(f.currency, total);
  }
  let newAccounts = 0;
  for (const a of accounts) {
    const day = byDay.get(a.day);
    if (day) day.newAccounts = a.n;
    newAccounts += a.n;
  }
  return {
    days,
    totals: {
      sales: [...salesTotals.values()],
      fees: [...feeTotals.values()],
      newAccounts,
      pendingPayouts: pending.map((p) => ({
        currency: p.currency,
        count: p.count,
        amount: Number(p.amount),
      })),
      openReports: openReports[0]?.n ?? 0,
      identityAwaiting: awaiting[0]?.n ?? 0,
    },
    daily,
  };
}
