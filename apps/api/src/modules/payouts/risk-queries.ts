import type { Currency } from "@salelink/contracts";
import { and, desc, eq, gte, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bankAccounts, disputes, links, orders, payouts, reports, users } from "../../db/schema/index.ts";

/* What the risk rules and the payout e-mails read about a payee; the payee's id is in every where. */

export async function payeeOf(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ email: users.email, locale: users.locale, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** Whether one of the account's payouts was ever paid. */
export async function hasPaidPayout(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, "paid")))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether one of the account's sales was refunded or disputed since `since`, whoever bore it
 * (issue 32): a refund that found the money paid out counts as much as one the balance covered.
 */
export async function refundedSince(db: DbOrTx, userId: string, since: Date): Promise<boolean> {
  const [refunded] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.creatorId, userId), gte(orders.lastRefundedAt, since)))
    .limit(1);
  if (refunded) return true;
  const [disputed] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.creatorId, userId), gte(disputes.createdAt, since)))
    .limit(1);
  return disputed !== undefined;
}

/** Whether someone reported one of the account's links since `since` (a dismissed report does not count). */
export async function reportedSince(db: DbOrTx, userId: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: reports.id })
    .from(reports)
    .innerJoin(links, eq(links.id, reports.linkId))
    .where(and(eq(links.ownerId, userId), gte(reports.createdAt, since), ne(reports.status, "dismissed")))
    .limit(1);
  return row !== undefined;
}

/** When the bank account was added (null when it is not the owner's any more). */
export async function bankAccountAddedAt(db: DbOrTx, userId: string, id: string): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: bankAccounts.createdAt })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.ownerId, userId)));
  return row?.createdAt ?? null;
}

/** The owner's newest bank account that takes `currency`: where a scheduled payout goes. */
export async function newestBankAccountIn(db: DbOrTx, userId: string, currency: Currency) {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, userId), eq(bankAccounts.currency, currency)))
    .orderBy(desc(bankAccounts.createdAt), desc(bankAccounts.id))
    .limit(1);
  return row ?? null;
}

/** The currencies the owner's bank accounts take. */
export async function bankAccountCurrencies(db: DbOrTx, userId: string): Promise<Currency[]> {
  const rows = await db
    .selectDistinct({ currency: bankAccounts.currency })
    .from(bankAccounts)
    .where(eq(bankAccounts.ownerId, userId));
  return rows.map((r) => r.currency).sort();
}
