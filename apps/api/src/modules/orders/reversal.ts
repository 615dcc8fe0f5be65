import type { Tx } from "../../db/client.ts";
import { debtsIncurred } from "../wallet/debt-postings.ts";
import { queueDebtNotices } from "../wallet/debts/service.ts";
import type { Posting } from "../wallet/entries.ts";
import { balanceLookup, post } from "../wallet/ledger.ts";
import { coverShortfall, orderRefunded, type RefundedParts, refundedParts } from "../wallet/postings.ts";
import type { OrderRow } from "./queries.ts";
import { claimsOf, saleFacts } from "./sale-facts.ts";

/**
 * Takes back a share of a sale as it stands (a refund, a chargeback), each part from whoever holds
 * it now: the creator's net from their held or available balance, a commission from its earner's
 * claimable balance or, once claimed, their wallet. What a balance no longer holds becomes its
 * owner's debt, never the platform's loss (decision 042), and the owner is told. Answers what was
 * taken of each part (before any of it fell to a debt) and the posting as made.
 */
export async function takeBackShare(
  tx: Tx,
  order: OrderRow,
  share: Share,
): Promise<{ parts: RefundedParts; posting: Posting }> {
  const { reversal, posting } = await shareTaken(tx, order, share);
  await post(tx, posting);
  await queueDebtNotices(tx, posting);
  return { parts: refundedParts(reversal), posting };
}

interface Share {
  kind: "refund" | "dispute";
  reference: string;
  amountMinor: number;
}

async function shareTaken(tx: Tx, order: OrderRow, share: Share) {
  const reversal = orderRefunded(saleFacts(order), order.releasedAt !== null, share);
  const owners = reversal.entries.flatMap((e) => (e.ownerId === null ? [] : [e.ownerId]));
  const balanceOf = await balanceLookup(tx, owners);
  const posting: Posting = {
    ...reversal,
    entries: coverShortfall(reversal.entries, balanceOf, claimsOf(order)),
  };
  return { reversal, posting, balanceOf };
}

/**
 * What refunding `amountMinor` of the sale now would do to debts (decision 042): what it would add,
 * all owners together, and the most any one owner (the creator, their partner, a referrer) would
 * then owe in all. A creator's refund that would leave anyone owing more than the limit is refused.
 */
export async function debtOfRefunding(
  tx: Tx,
  order: OrderRow,
  amountMinor: number,
): Promise<{ addedMinor: number; largestOwedMinor: number }> {
  const { posting, balanceOf } = await shareTaken(tx, order, {
    kind: "refund",
    reference: order.id,
    amountMinor,
  });
  const added = debtsIncurred(posting);
  const owed = added.map((e) => -e.amountMinor - Math.min(0, balanceOf(e.ownerId ?? "", "debt", e.currency)));
  return {
    addedMinor: added.reduce((sum, e) => sum - e.amountMinor, 0),
    largestOwedMinor: Math.max(0, ...owed),
  };
}
