import type { Currency } from "@salelink/contracts";
import type { LedgerAccount, LedgerTransactionKind } from "@salelink/contracts/ledger";

/* The shape of a movement of money: the posting rules (postings.ts) make them, the ledger posts them. */

export interface EntryInput {
  account: LedgerAccount;
  /** The user whose account it is; null for the platform's accounts. */
  ownerId: string | null;
  currency: Currency;
  amountMinor: number;
  /** Held money: when it becomes available. */
  availableAt?: Date | null;
}

export interface Posting {
  kind: LedgerTransactionKind;
  /** With `kind`, identifies the event: posting the same pair again changes nothing. */
  reference: string;
  memo?: Record<string, string | number | null>;
  entries: EntryInput[];
}
