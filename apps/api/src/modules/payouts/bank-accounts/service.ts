import type { BankAccount, CreateBankAccountBody } from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { SecretBox } from "../../../lib/secret-box.ts";
import { affiliateIbanAdded } from "../../affiliates/account-events.ts";
import { maskIban } from "../queries.ts";
import {
  bankAccountsOf,
  deleteOwnBankAccount,
  hasOpenPayoutTo,
  insertBankAccount,
  lockOwnBankAccount,
} from "./queries.ts";

/** The key that seals IBANs at rest; separate from the 2FA seeds' own. */
export const ibanBox = (config: Config) => new SecretBox(config.appSecret, "iban");

export const bankAccountNotFound = () =>
  new AppError("NotFoundException", "This bank account was not found.");

export function toBankAccount(row: {
  id: string;
  holderName: string;
  ibanCountry: string;
  ibanLast4: string;
  bic: string | null;
  createdAt: Date;
}): BankAccount {
  return {
    id: row.id,
    holderName: row.holderName,
    ibanMasked: maskIban(row.ibanCountry, row.ibanLast4),
    country: row.ibanCountry,
    bic: row.bic,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /profile/bank-accounts: never shown in full. */
export async function listBankAccounts(db: Db, ownerId: string): Promise<{ items: BankAccount[] }> {
  const rows = await bankAccountsOf(db, ownerId);
  return { items: rows.map(toBankAccount) };
}

/** POST /profile/bank-accounts: the IBAN sealed at rest, only its country and last four in clear. */
export async function addBankAccount(
  db: Db,
  config: Config,
  ownerId: string,
  body: CreateBankAccountBody,
): Promise<BankAccount> {
  const { holderName, iban, bic } = body;
  // With the IBAN's self-referral check (issue 16): one transaction, so a match voids at once.
  const row = await db.transaction(async (tx) => {
    const inserted = await insertBankAccount(tx, {
      ownerId,
      holderName,
      ibanSealed: ibanBox(config).seal(iban),
      ibanCountry: iban.slice(0, 2),
      ibanLast4: iban.slice(-4),
      bic: bic ?? null,
    });
    await affiliateIbanAdded(tx, config, ownerId, iban);
    return inserted;
  });
  return toBankAccount(row);
}

/** DELETE /profile/bank-accounts/:id: refused while a payout to it is open, under the row's lock. */
export async function deleteBankAccount(db: Db, userId: string, bankAccountId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const bank = await lockOwnBankAccount(tx, userId, bankAccountId);
    if (!bank) throw bankAccountNotFound();
    if (await hasOpenPayoutTo(tx, bank.id))
      throw new AppError(
        "ConflictException",
        "A withdrawal to this bank account is in progress: you can delete it once it is paid or failed.",
      );
    await deleteOwnBankAccount(tx, userId, bank.id);
  });
}
