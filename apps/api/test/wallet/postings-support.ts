import type { Currency } from "@salelink/contracts";
import type { LedgerAccount } from "@salelink/contracts/ledger";
import { expect } from "vitest";
import { assertBalanced, type EntryInput, type Posting } from "../../src/modules/wallet/ledger.ts";

/* What the posting rules' unit tests share: the parties, an entry, and two checks. */

export const creator = "00000000-0000-4000-8000-00000000000c";
export const referrer = "00000000-0000-4000-8000-00000000000r";
export const partner = "00000000-0000-4000-8000-00000000000p";
export const availableAt = new Date("2026-01-08T00:00:00Z");

export const entry = (
  account: LedgerAccount,
  ownerId: string | null,
  amountMinor: number,
  currency: Currency = "EUR",
): EntryInput => ({ account, ownerId, currency, amountMinor });

/** The posting, once it is known to balance. */
export function balanced(p: Posting): Posting {
  expect(() => assertBalanced(p)).not.toThrow();
  return p;
}

/** Throws a RangeError with exactly this message. */
export function refused(f: () => unknown, message: string): void {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RangeError);
  expect((error as Error).message).toBe(message);
}
