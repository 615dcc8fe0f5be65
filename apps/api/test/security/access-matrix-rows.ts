import { type Caller, newParty, type Party, type World } from "./access-fixtures.ts";
import type { Row } from "./access-rows.ts";
import { accountRows } from "./access-rows-account.ts";
import { customerRows } from "./access-rows-customers.ts";
import { disputeRows } from "./access-rows-disputes.ts";
import { invoiceRows } from "./access-rows-invoices.ts";
import { notificationRows } from "./access-rows-notifications.ts";
import { partnerRows } from "./access-rows-partners.ts";
import { purchaseRows } from "./access-rows-purchases.ts";
import { saleRows } from "./access-rows-sales.ts";
import { shopRows } from "./access-rows-shop.ts";
import { updateRows } from "./access-rows-updates.ts";

/** Every route's row of the access matrix, read by the matrix and by tests that replay its calls. */
export const matrixRows: Record<string, Row> = {
  ...accountRows,
  ...shopRows,
  ...partnerRows,
  ...purchaseRows,
  ...saleRows,
  ...notificationRows,
  ...customerRows,
  ...updateRows,
  ...invoiceRows,
  ...disputeRows,
};

/** The owner goes last: its call may change what the others must be refused. */
export const callerOrder: readonly Caller[] = ["anonymous", "buyer", "other", "admin", "creator"];

/** The account a row is called as: a fresh one where the row asks, the owner's session where it made one. */
export async function callerAccount(
  world: World,
  as: Caller,
  row: Row,
  prepared: Record<string, string>,
): Promise<Party | null> {
  if (as === "anonymous") return null;
  if (row.fresh) return newParty(world.ctx, as === "admin" ? { role: "admin" } : {});
  if (as === "creator" && prepared.ownerCookie) return { ...world.creator, cookie: prepared.ownerCookie };
  return world[as];
}
