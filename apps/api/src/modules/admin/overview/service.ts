import type { AdminOverview, Currency } from "@salelink/contracts";
import type { Db } from "../../../db/client.ts";
import { type OverviewFigures, overviewFigures } from "./queries.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `days` UTC days, today included: the first day's and today's midnights (UTC). */
export function overviewPeriod(days: number, now: Date): { since: Date; today: number } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { since: new Date(today - (days - 1) * DAY_MS), today };
}

/**
 * GET /admin/overview: the period is the last `days` UTC days, today included. A sale is an order
 * paid in the period (a later refund does not remove it from the day it happened); fees are the
 * platform_fees ledger account's movements, so a refund's reversal lowers them on its own day.
 */
export async function overview(db: Db, days: number, now = new Date()): Promise<AdminOverview> {
  const { since, today } = overviewPeriod(days, now);
  return overviewOf(days, since, today, await overviewFigures(db, since));
}

/** The figures laid out per day (every day of the period, empty ones too) and totalled per currency. */
export function overviewOf(
  days: number,
  since: Date,
  today: number,
  { sales, fees, accounts, pending, openReports, awaiting }: OverviewFigures,
): AdminOverview {
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
