import {
  LIBRARY_ACCESS_TTL_MINUTES,
  LIBRARY_ORDERS_SHOWN,
  type Library,
  type LibraryAccess,
  type Locale,
  PURCHASES_LINK_TTL_MINUTES,
  PURCHASES_LINKS_PER_HOUR,
} from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import type { ObjectStorage } from "../../providers/storage/index.ts";
import { orderAccessToken } from "../checkout/order-access.ts";
import { invoicesOfOrders } from "../invoices/downloads.ts";
import { queueMail } from "../mail/jobs.ts";
import { receiptMail } from "../orders/events.ts";
import { buyerHasOrders, linkForMail, orderOfBuyer, ordersOfBuyer } from "../orders/queries.ts";
import { orderView } from "../orders/service.ts";
import * as q from "./queries.ts";

/*
 * The buyer's library (issue 21): every order paid with an address, for whoever proves they read
 * that address's mail (a one-time link) or holds a verified account with it. No account needed.
 */

export interface PurchasesDeps {
  db: Db;
  config: Config;
  storage: ObjectStorage;
  /** Wakes the job worker once a transaction that queued mail has committed. */
  pokeJobs(): void;
}

const MINUTE_MS = 60_000;

export const libraryAccessRefused = () =>
  new AppError("UnauthorizedException", "This access to your purchases has expired. Ask for a new link.");
const linkGone = () =>
  new AppError(
    "NotFoundException",
    "This link no longer works. Ask for a new one: it is valid for one hour, once.",
  );

/**
 * "Send me my purchases": e-mails a one-time link when the address paid for something and has had
 * fewer than PURCHASES_LINKS_PER_HOUR this hour. The caller answers the same either way, so the
 * answer tells nothing about the address.
 */
export async function sendLibraryLink(deps: PurchasesDeps, email: string, locale: Locale): Promise<void> {
  const now = new Date();
  const queued = await deps.db.transaction(async (tx) => {
    if (!(await buyerHasOrders(tx, { email }))) return false;
    const sent = await q.linksSentSince(tx, { email, since: new Date(now.getTime() - 60 * MINUTE_MS) });
    if (sent >= PURCHASES_LINKS_PER_HOUR) return false;
    const token = randomToken();
    await q.insertLink(tx, {
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + PURCHASES_LINK_TTL_MINUTES * MINUTE_MS),
    });
    await queueMail(tx, {
      to: email,
      locale,
      template: "purchases-link",
      params: {
        url: `${deps.config.WEB_ORIGIN}/purchases/open/${token}`,
        expiresInHours: Math.max(1, Math.round(PURCHASES_LINK_TTL_MINUTES / 60)),
      },
    });
    return true;
  });
  if (queued) deps.pokeJobs();
}

/** Opens an e-mailed link, once: the library's access for this browser. */
export async function openLibrary(db: Db, token: string): Promise<LibraryAccess> {
  const now = new Date();
  const accessToken = randomToken();
  const expiresAt = new Date(now.getTime() + LIBRARY_ACCESS_TTL_MINUTES * MINUTE_MS);
  const email = await q.openLink(db, {
    tokenHash: hashToken(token),
    accessHash: hashToken(accessToken),
    accessExpiresAt: expiresAt,
    now,
  });
  if (!email) throw linkGone();
  return { accessToken, expiresAt: expiresAt.toISOString() };
}

/** The address a library access opens, or the 401 of an expired one. */
export async function libraryEmail(db: Db, accessToken: string | undefined): Promise<string> {
  if (!accessToken || accessToken.length > 128) throw libraryAccessRefused();
  const email = await q.accessEmail(db, { accessHash: hashToken(accessToken), now: new Date() });
  if (!email) throw libraryAccessRefused();
  return email;
}

/** Every order paid with the address, newest first, as the order page shows each. */
export async function libraryOf(deps: Pick<PurchasesDeps, "db" | "config" | "storage">, email: string) {
  const rows = await ordersOfBuyer(deps.db, { email, limit: LIBRARY_ORDERS_SHOWN });
  const invoices = await invoicesOfOrders(
    deps.db,
    rows.map((row) => row.id),
  );
  const orders = await Promise.all(
    rows.map(async (row) => ({
      ...(await orderView(deps.storage, row, invoices.get(row.id) ?? [])),
      orderToken: orderAccessToken(deps.config, row.id),
    })),
  );
  return { email, orders } satisfies Library;
}

type BuyerOrder = NonNullable<Awaited<ReturnType<typeof orderOfBuyer>>>;

/** One of the address's orders by its token; the same 404 for another's and for none. */
export async function buyerOrder(db: Db, email: string, orderToken: string): Promise<BuyerOrder> {
  const order = await orderOfBuyer(db, { email, accessTokenHash: hashToken(orderToken) });
  if (!order) throw new AppError("NotFoundException", "This order was not found among your purchases.");
  return order;
}

/** An order's receipt, e-mailed again to the address that paid it. */
export async function resendReceipt(deps: PurchasesDeps, order: BuyerOrder): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const receipt = receiptMail(
      deps.config,
      order,
      orderAccessToken(deps.config, order.id),
      await linkForMail(tx, order.linkId),
    );
    // Not the first receipt's dedupe key: this one is asked for (the route counts the asks).
    await queueMail(tx, receipt.mail);
  });
  deps.pokeJobs();
}
