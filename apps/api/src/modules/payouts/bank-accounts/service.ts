import { type BankAccount, bankAccountCurrency, type CreateBankAccountBody } from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { SecretBox } from "../../../lib/secret-box.ts";
import { type PayoutDestination, PayoutRefusedError } from "../../../providers/payouts/types.ts";
import { affiliateIbanAdded } from "../../affiliates/account-events.ts";
import { maskAccount } from "../queries.ts";
import {
  type BankAccountRow,
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
  kind: BankAccount["kind"];
  currency: BankAccount["currency"];
  bankCode: string | null;
  accountType: BankAccount["accountType"];
  createdAt: Date;
}): BankAccount {
  return {
    id: row.id,
    holderName: row.holderName,
    ibanMasked: maskAccount(row),
    country: row.ibanCountry,
    bic: row.bic,
    kind: row.kind,
    currency: row.currency,
    accountType: row.accountType,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What identifies the account at its bank, as typed: the IBAN, or the bank's code with the account
 * number. Sealed at rest; the self-referral check (issue 16) compares it.
 */
export function accountIdentifier(body: CreateBankAccountBody): string {
  if (body.kind === "iban") return body.iban;
  if (body.kind === "gb") return `GB:${body.sortCode}:${body.accountNumber}`;
  return `US:${body.routingNumber}:${body.accountNumber}`;
}

/**
 * Where a payout to this saved account goes, its number opened for the provider's call only. A row
 * missing its kind's bank code (never saved so) cannot be paid, and a retry cannot change that: the
 * payout fails with the reason and the money returns, rather than being sent on a guess.
 */
export function payoutDestination(config: Config, bank: BankAccountRow): PayoutDestination {
  const common = {
    bankAccountId: bank.id,
    holderName: bank.holderName,
    country: bank.ibanCountry,
    currency: bank.currency,
    stripeExternalAccountId: bank.stripeExternalAccountId,
  };
  const number = ibanBox(config).open(bank.ibanSealed);
  if (bank.kind === "iban") return { ...common, kind: "iban", iban: number, bic: bank.bic };
  const incomplete = () =>
    new PayoutRefusedError("The bank account is incomplete: add it again, then ask for the payout again.");
  if (!bank.bankCode) throw incomplete();
  if (bank.kind === "gb") return { ...common, kind: "gb", sortCode: bank.bankCode, accountNumber: number };
  if (!bank.accountType) throw incomplete();
  return {
    ...common,
    kind: "us",
    routingNumber: bank.bankCode,
    accountNumber: number,
    accountType: bank.accountType,
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
  // The IBAN, or the account number (the bank's code is kept in clear: it names a bank, not an account).
  const number = body.kind === "iban" ? body.iban : body.accountNumber;
  const identifier = accountIdentifier(body);
  // With the account's self-referral check (issue 16): one transaction, so a match voids at once.
  const row = await db.transaction(async (tx) => {
    const inserted = await insertBankAccount(tx, {
      ownerId,
      holderName: body.holderName,
      ibanSealed: ibanBox(config).seal(number),
      ibanCountry: body.kind === "iban" ? body.iban.slice(0, 2) : body.kind === "gb" ? "GB" : "US",
      ibanLast4: number.slice(-4),
      bic: body.kind === "iban" ? (body.bic ?? null) : null,
      kind: body.kind,
      currency: bankAccountCurrency(body),
      bankCode: body.kind === "gb" ? body.sortCode : body.kind === "us" ? body.routingNumber : null,
      accountType: body.kind === "us" ? body.accountType : null,
    });
    await affiliateIbanAdded(tx, config, ownerId, identifier);
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
