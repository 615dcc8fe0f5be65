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

/** A session the person finished and the provider has not decided yet. */
const awaitingDecision = ["submitted", "review"] as const;

const utcDay = (column: unknown) => sql<string>`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`;

/**
 * The overview's figures since `since`: paid orders and platform fees per UTC day and currency, new
 * accounts per day, and what waits now (open payouts, open reports, identity checks to decide).
 */
export async function overviewFigures(db: DbOrTx, since: Date) {
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

  return { sales, fees, accounts, pending, openReports, awaiting };
}

export type OverviewFigures = Awaited<ReturnType<typeof overviewFigures>>;
