import type { SalesSummary } from "@salelink/contracts";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { jobKind } from "../../../jobs/index.ts";
import * as q from "./queries.ts";

/*
 * The creator dashboard's figures from rollups (decision 031): sales per day, link and currency,
 * and each affiliate's commissions per referred account, recomputed by the `sales.rollup-refresh`
 * job every SALES_ROLLUP_REFRESH_MS from the orders changed since its last run. A read is as of the
 * last refresh, which it reports; it starts a refresh itself when that is older than the configured
 * maximum age (the job late or not running).
 */

export type RollupConfig = Pick<
  Config,
  "SALES_ROLLUP_OVERLAP_MS" | "SALES_ROLLUP_REFRESH_MS" | "JOBS_ENABLED" | "salesRollupMaxAgeMs"
>;

/*
 * The periodic refresh: each run queues the next in its own transaction, once per period whoever
 * asks (the dedupe key is the period's number), so several instances' workers share one chain. A
 * read that finds the rollups older than their maximum age refreshes them itself and queues the
 * next run: that starts the chain on a new database and restarts it if a run ever failed for good.
 */
export const salesRollupRefreshJob = jobKind("sales.rollup-refresh", z.object({}));

/** Queues the run of the next period (a no-op when it is queued already). */
export async function scheduleRollupRefresh(
  db: DbOrTx,
  config: Pick<Config, "SALES_ROLLUP_REFRESH_MS">,
  now = Date.now(),
): Promise<void> {
  const period = Math.floor(now / config.SALES_ROLLUP_REFRESH_MS) + 1;
  await salesRollupRefreshJob.enqueue(
    db,
    {},
    {
      runAt: new Date(period * config.SALES_ROLLUP_REFRESH_MS),
      dedupeKey: `sales.rollup-refresh@${period}`,
      // A failed run is not retried late: the next read finding the rollups old refreshes them and
      // queues the chain again.
      maxAttempts: 1,
    },
  );
}

export interface RefreshResult {
  /** Every order change committed before this time is in the rollups. */
  asOf: Date;
  salesRows: number;
  referralRows: number;
}

/**
 * Brings the rollups current, in the caller's transaction (the job's, or one of its own). Exported
 * for the bench and scripts that load orders in bulk: `db.transaction((tx) => refreshSalesRollups(tx))`.
 */
export async function refreshSalesRollups(
  tx: DbOrTx,
  config: Pick<Config, "SALES_ROLLUP_OVERLAP_MS"> = { SALES_ROLLUP_OVERLAP_MS: 10_000 },
): Promise<RefreshResult> {
  // Nothing to recompute: no write at all (a dashboard read stays a read), and the coverage stays
  // where it is, so an order change still in flight is found by a later refresh.
  if (!(await q.ordersChangedSinceCoverage(tx, q.SALES_WATERMARK))) {
    return { asOf: new Date(), salesRows: 0, referralRows: 0 };
  }
  const { since, refreshedAt } = await q.advanceWatermark(tx, {
    name: q.SALES_WATERMARK,
    overlapMs: config.SALES_ROLLUP_OVERLAP_MS,
  });
  const salesRows = await q.refreshSalesDaily(tx, since);
  const referralRows = await q.refreshReferralSales(tx, since);
  return { asOf: refreshedAt, salesRows, referralRows };
}

/**
 * Per database handle: the last time this instance found the rollups young enough, and as of when
 * they were; and a refresh in flight, which readers that find them old share.
 */
const checked = new WeakMap<object, { at: number; asOf: Date }>();
const inFlight = new WeakMap<object, Promise<Date>>();

/**
 * The time the rollups are current as of, refreshing them when older than the maximum age (and then
 * queueing the periodic job's next run, when this instance runs jobs). Until twice that age, readers
 * get the figures they have while the refresh runs, so no dashboard read waits for one; past it, or
 * with a maximum age of 0 (tests), they wait for it. A check stands for a second (or the maximum
 * age, when shorter), so a busy dashboard costs one query a second here.
 */
export async function freshRollups(db: Db, config: RollupConfig): Promise<Date> {
  const now = Date.now();
  const maxAge = config.salesRollupMaxAgeMs;
  const last = checked.get(db);
  if (last && now - last.at < Math.min(maxAge, 1000)) return last.asOf;
  const mark = await q.watermarkOf(db, q.SALES_WATERMARK);
  const age = mark ? now - mark.refreshedAt.getTime() : Number.POSITIVE_INFINITY;
  if (mark && age < maxAge) {
    checked.set(db, { at: now, asOf: mark.refreshedAt });
    return mark.refreshedAt;
  }
  let refresh = inFlight.get(db);
  if (!refresh) {
    refresh = db
      .transaction(async (tx) => {
        const { asOf } = await refreshSalesRollups(tx, config);
        if (config.JOBS_ENABLED) await scheduleRollupRefresh(tx, config);
        return asOf;
      })
      .then((asOf) => {
        checked.set(db, { at: Date.now(), asOf });
        return asOf;
      })
      .finally(() => inFlight.delete(db));
    // A refresh nobody waits for fails quietly: the next read past the maximum age tries again.
    refresh.catch(() => undefined);
    inFlight.set(db, refresh);
  }
  if (mark && maxAge > 0 && age < 2 * maxAge) return mark.refreshedAt;
  return refresh;
}

const mask = (email: string) => {
  const [name = "", domain = ""] = email.split("@");
  return `${name.slice(0, 1)}•••@${domain}`;
};

/** The days GET /sales/summary shows, today included. */
export const SUMMARY_DAYS = 30;
/** How many of the latest orders it lists. */
export const LATEST_ORDERS_SHOWN = 10;

export async function salesSummaryOf(db: Db, config: RollupConfig, userId: string): Promise<SalesSummary> {
  const asOf = await freshRollups(db, config);
  const today = new Date();
  const from = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (SUMMARY_DAYS - 1)),
  );
  const [totals, days, latest] = await Promise.all([
    q.salesTotals(db, userId),
    q.salesDays(db, userId, from.toISOString().slice(0, 10)),
    q.latestOrders(db, userId, LATEST_ORDERS_SHOWN),
  ]);
  return {
    salesCount: totals.reduce((n, t) => n + t.sales, 0),
    revenue: totals.map((t) => ({ currency: t.currency, amount: t.amount })),
    days,
    latestOrders: latest.map((o) => ({
      id: o.id,
      title: o.title,
      total: o.total,
      currency: o.currency,
      status: o.status,
      paidAt: o.paidAt ? o.paidAt.toISOString() : null,
      buyer: mask(o.email),
    })),
    asOf: asOf.toISOString(),
  };
}
