import { randomUUID } from "node:crypto";
import type { Currency } from "@salelink/contracts";
import type { Db } from "../../src/db/client.ts";
import { post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";

/**
 * A sale's net, held then released at once: what a creator can withdraw, posted as the checkout and
 * the hold release post it (no order row: for the suites that only need the money).
 */
export async function creditReleasedSale(
  db: Db,
  userId: string,
  grossMinor: number,
  currency: Currency = "EUR",
): Promise<void> {
  const facts = {
    orderId: randomUUID(),
    creatorId: userId,
    referrerId: null,
    partnerId: null,
    currency,
    split: splitSale(grossMinor, 0, null),
    availableAt: new Date(Date.now() - 1000),
  };
  await db.transaction(async (tx) => {
    await post(tx, orderPaid(facts));
    await post(tx, holdReleased(facts));
  });
}
