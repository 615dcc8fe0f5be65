/*
 * The ledger's chart of accounts and its transaction kinds (DESIGN section 4, decision 024): the one
 * place an account or a kind is named. The database schema (its enum and its CHECK), the API's
 * posting rules and the wallet's contracts all derive from these lists. No zod here, so the API's
 * schema and the web's shell can import it for free.
 */

import { type VatCountry, vatCountries } from "./vat-countries.ts";

export type AccountHolder = "user" | "platform";

interface AccountRule {
  readonly name: string;
  /** Whose money it is: a user's account carries their id, the platform's none. */
  readonly holder: AccountHolder;
  /**
   * Whether its balance may go below zero (what a user can spend, or is owed, never does). The
   * database enforces it on users' running balances; the platform's accounts keep none, so for
   * them it states what a sum of their entries should show.
   */
  readonly mayGoNegative: boolean;
}

/**
 * Amounts are signed integer minor units: positive is money the platform owes the holder of the
 * account. The order is the schema's enum order.
 */
export const chartOfAccounts = [
  /** A creator's sale proceeds during the hold. */
  { name: "pending", holder: "user", mayGoNegative: false },
  /** Withdrawable. */
  { name: "available", holder: "user", mayGoNegative: false },
  /** Requested for a payout, not yet paid. */
  { name: "in_transit", holder: "user", mayGoNegative: false },
  /** A referrer's commission during the hold, then claimable. */
  { name: "affiliate_pending", holder: "user", mayGoNegative: false },
  { name: "affiliate_claimable", holder: "user", mayGoNegative: false },
  /** A partner's commission on a creator's sale (the creator's partner programme), then claimable. */
  { name: "partner_pending", holder: "user", mayGoNegative: false },
  { name: "partner_claimable", holder: "user", mayGoNegative: false },
  /**
   * What a user owes the platform (issue 32, decision 042): the part of a reversal (refund, dispute,
   * clawback of a commission, failed transfer) that their balances no longer held, because the money
   * had left (withdrawn, claimed, transferred). Never above zero (a CHECK of its own); repaid first
   * from what next becomes available to them; payouts wait while any currency is in debt.
   */
  { name: "debt", holder: "user", mayGoNegative: true },
  /**
   * The platform's share of sales (its fee, less referrers' commissions). A user's reversal never
   * touches it beyond giving back that sale's own fee: what a user cannot cover is their debt.
   */
  { name: "platform_fees", holder: "platform", mayGoNegative: true },
  /** Money held at the payment provider (an asset: negative while the platform holds buyers' money). */
  { name: "provider", holder: "platform", mayGoNegative: true },
  /**
   * Payments that went through for an order that could no longer be fulfilled (sold out, code used
   * up): owed back to their buyers until the provider confirms the refund. Never anyone's sale.
   */
  { name: "buyer_refunds", holder: "platform", mayGoNegative: false },
  /** Debts an operator gave up on (an expense: negative), each written off with a reason, audited. */
  { name: "debts_written_off", holder: "platform", mayGoNegative: true },
  /**
   * The platform's part of disputed sales (the VAT and its fee) while the buyer's bank decides
   * (issue 32): negative, what comes back if the dispute is won. A lost dispute moves it out of the
   * VAT owed and the fees, with its credit note, in the same transaction.
   */
  { name: "disputes_held", holder: "platform", mayGoNegative: true },
  /**
   * VAT charged on sales, owed to each country's tax authority (issue 22): one account per country
   * the platform may tax (`vat_FR`…), never the creator's money nor the platform's revenue.
   */
  ...vatCountries.map((c) => ({
    name: vatAccount(c),
    holder: "platform" as const,
    mayGoNegative: false as const,
  })),
] as const satisfies readonly AccountRule[];

/** The VAT liability account of a country. */
export function vatAccount<C extends VatCountry>(country: C): `vat_${C}` {
  return `vat_${country}`;
}
export type VatAccount = `vat_${VatCountry}`;

export function isVatAccount(account: string): account is VatAccount {
  return account.startsWith("vat_");
}

type Chart = (typeof chartOfAccounts)[number];
export type LedgerAccount = Chart["name"];
export type UserAccount = Extract<Chart, { holder: "user" }>["name"];
export type PlatformAccount = Extract<Chart, { holder: "platform" }>["name"];

type NonEmpty<T> = readonly [T, ...T[]];
const names = <T extends LedgerAccount>(keep: (a: Chart) => boolean) =>
  chartOfAccounts.filter(keep).map((a) => a.name) as unknown as NonEmpty<T>;

export const ledgerAccounts = names<LedgerAccount>(() => true);
/** The accounts of a user: the wallet shows these, and only these carry a running balance row. */
export const userAccounts = names<UserAccount>((a) => a.holder === "user");
export const platformAccounts = names<PlatformAccount>((a) => a.holder === "platform");
export const nonNegativeAccounts = names<LedgerAccount>((a) => !a.mayGoNegative);
export const negativeAllowedAccounts = names<LedgerAccount>((a) => a.mayGoNegative);

export function holderOf(account: LedgerAccount): AccountHolder {
  const rule = chartOfAccounts.find((a) => a.name === account);
  if (!rule) throw new RangeError(`unknown ledger account ${account}`);
  return rule.holder;
}

export function isUserAccount(account: LedgerAccount): account is UserAccount {
  return holderOf(account) === "user";
}

/** The kinds a user sees among their movements (and may filter on). */
export const transactionKinds = [
  "order_paid",
  "hold_release",
  "refund",
  "claim",
  /** A partner claims their partner programmes' commissions. */
  "partner_claim",
  "payout_requested",
  "payout_paid",
  "payout_failed",
  /** A payout the bank sent back after it was paid (Stripe's payout.failed after payout.paid). */
  "payout_returned",
  /** An unclaimed commission of a self-referral, taken back by the platform. */
  "commission_void",
  /** A chargeback (issue 32): the disputed share of a sale taken at once, given back if it is won. */
  "dispute",
  "dispute_won",
  /** The provider's fee for a dispute, borne by the creator (a setting), and its return. */
  "dispute_fee",
  "dispute_fee_returned",
  /** What became available repays a debt first (decision 042). */
  "debt_repayment",
  /** An operator gave up on a debt. */
  "debt_write_off",
] as const;
export type TransactionKind = (typeof transactionKinds)[number];

/** Kinds that move only the platform's accounts: a payment for an order that could not be fulfilled, and its refund. */
export const platformTransactionKinds = [
  "payment_unfulfilled",
  "unfulfilled_refund",
  /** A dispute lost: the VAT and the platform's fee it held leave the VAT owed and the fees. */
  "dispute_lost",
] as const;

/** Every kind of ledger transaction: with its reference, it posts each event once. */
export const ledgerTransactionKinds = [...transactionKinds, ...platformTransactionKinds] as const;
export type LedgerTransactionKind = (typeof ledgerTransactionKinds)[number];

/** The kinds whose reference is an order's id. */
export const orderTransactionKinds = [
  "order_paid",
  "hold_release",
  "refund",
] as const satisfies readonly TransactionKind[];
