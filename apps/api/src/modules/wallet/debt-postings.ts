import type { Currency } from "@salelink/contracts";
import type { EntryInput, Posting } from "./entries.ts";

/*
 * Debts (issue 32, decision 042), pure like the rest of the money rules: which debts a posting adds,
 * what became available repaying them, and an operator's write-off.
 */

/** The debts a posting adds (negative entries of `debt`): whom to tell, and what the model checks. */
export function debtsIncurred(posting: Posting): EntryInput[] {
  return posting.entries.filter((e) => e.account === "debt" && e.amountMinor < 0);
}

/**
 * What became available to a user in debt repays the debt first (decision 042): as much of the
 * available balance as the debt needs, in one movement, referenced by the posting that made it
 * available. Null when there is nothing to repay.
 */
export function debtRepayment(p: {
  reference: string;
  ownerId: string;
  currency: Currency;
  availableMinor: number;
  debtMinor: number;
}): Posting | null {
  const amount = Math.min(Math.max(0, p.availableMinor), Math.max(0, -p.debtMinor));
  if (amount === 0) return null;
  return {
    kind: "debt_repayment",
    reference: p.reference,
    entries: [
      { account: "available", ownerId: p.ownerId, currency: p.currency, amountMinor: -amount },
      { account: "debt", ownerId: p.ownerId, currency: p.currency, amountMinor: amount },
    ],
  };
}

/** An operator gives up on a debt (decision 042): it is cleared against the platform's write-offs. */
export function debtWrittenOff(p: {
  writeOffId: string;
  ownerId: string;
  currency: Currency;
  amountMinor: number;
}): Posting {
  if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor <= 0)
    throw new RangeError(`debtWrittenOff(${p.amountMinor})`);
  return {
    kind: "debt_write_off",
    reference: p.writeOffId,
    entries: [
      { account: "debt", ownerId: p.ownerId, currency: p.currency, amountMinor: p.amountMinor },
      { account: "debts_written_off", ownerId: null, currency: p.currency, amountMinor: -p.amountMinor },
    ],
  };
}
