import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client.ts";
import { bankAccounts, payouts } from "../../../db/schema/index.ts";
import { openStatuses } from "../queries.ts";

/* The owner's bank accounts: the owner's id is in every where. */

const columns = {
  id: bankAccounts.id,
  holderName: bankAccounts.holderName,
  ibanCountry: bankAccounts.ibanCountry,
  ibanLast4: bankAccounts.ibanLast4,
  bic: bankAccounts.bic,
  kind: bankAccounts.kind,
  currency: bankAccounts.currency,
  bankCode: bankAccounts.bankCode,
  accountType: bankAccounts.accountType,
  createdAt: bankAccounts.createdAt,
};

export type BankAccountRow = typeof bankAccounts.$inferSelect;

export async function bankAccountsOf(db: DbOrTx, ownerId: string) {
  return db
    .select(columns)
    .from(bankAccounts)
    .where(eq(bankAccounts.ownerId, ownerId))
    .orderBy(asc(bankAccounts.createdAt));
}

export async function insertBankAccount(
  db: DbOrTx,
  values: Pick<
    BankAccountRow,
    | "ownerId"
    | "holderName"
    | "ibanSealed"
    | "ibanCountry"
    | "ibanLast4"
    | "bic"
    | "kind"
    | "currency"
    | "bankCode"
    | "accountType"
  >,
) {
  const [inserted] = await db.insert(bankAccounts).values(values).returning(columns);
  if (!inserted) throw new Error("bank account not inserted");
  return inserted;
}

/** The owner's bank account, its row locked until the transaction ends (null if not theirs). */
export async function lockOwnBankAccount(
  tx: Tx,
  ownerId: string,
  id: string,
): Promise<BankAccountRow | null> {
  const [row] = await tx
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.ownerId, ownerId)))
    .for("update");
  return row ?? null;
}

/** The owner's bank account, unlocked (null if not theirs, or deleted). */
export async function ownBankAccount(
  db: DbOrTx,
  ownerId: string,
  id: string,
): Promise<BankAccountRow | null> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.ownerId, ownerId)));
  return row ?? null;
}

/** Whether the owner has saved a bank account. */
export async function hasBankAccount(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(eq(bankAccounts.ownerId, userId))
    .limit(1);
  return row !== undefined;
}

/** Whether a payout to this bank account is still requested or processing. */
export async function hasOpenPayoutTo(db: DbOrTx, bankAccountId: string): Promise<boolean> {
  const [open] = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.bankAccountId, bankAccountId), inArray(payouts.status, [...openStatuses])))
    .limit(1);
  return open !== undefined;
}

export async function deleteOwnBankAccount(db: DbOrTx, ownerId: string, id: string): Promise<void> {
  await db.delete(bankAccounts).where(and(eq(bankAccounts.id, id), eq(bankAccounts.ownerId, ownerId)));
}

/** Remembers the bank account's id at Stripe, created when its first payout was submitted. */
export async function saveExternalAccount(db: DbOrTx, id: string, externalAccountId: string): Promise<void> {
  await db
    .update(bankAccounts)
    .set({ stripeExternalAccountId: externalAccountId })
    .where(eq(bankAccounts.id, id));
}
