import type { PayoutStatus } from "@salelink/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { bankAccounts, payouts } from "../../../db/schema/index.ts";

/*
 * The bank export's read: every account's payouts in one status, oldest first, with the payee's
 * bank account: its kind, its sealed IBAN or account number, its bank code (sort code or routing
 * number) and type; all null once the bank account is gone. Admin-only, so no owner filter.
 */
export async function payoutsToExport(db: DbOrTx, status: PayoutStatus) {
  return db
    .select({
      id: payouts.id,
      holderName: payouts.holderName,
      ibanSealed: bankAccounts.ibanSealed,
      bic: bankAccounts.bic,
      kind: bankAccounts.kind,
      country: bankAccounts.ibanCountry,
      bankCode: bankAccounts.bankCode,
      accountType: bankAccounts.accountType,
      amountMinor: payouts.amountMinor,
      currency: payouts.currency,
      requestedAt: payouts.requestedAt,
    })
    .from(payouts)
    .leftJoin(
      bankAccounts,
      and(eq(bankAccounts.id, payouts.bankAccountId), eq(bankAccounts.ownerId, payouts.userId)),
    )
    .where(eq(payouts.status, status))
    .orderBy(asc(payouts.requestedAt), asc(payouts.id));
}
