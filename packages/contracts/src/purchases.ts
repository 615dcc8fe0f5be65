import { z } from "zod";
import { emailedTokenSchema, emailSchema } from "./auth.ts";
import { orderTokenSchema, orderViewSchema } from "./checkout.ts";
import { localeSchema } from "./locale-schema.ts";

/*
 * The buyer's library (issue 21): "send me my purchases". A buyer gives an address and gets, by
 * e-mail, a one-time link to every order paid with it; no account needed. A signed-in account whose
 * verified address bought things reads the same library.
 */

/** How long the e-mailed link works, once. */
export const PURCHASES_LINK_TTL_MINUTES = 60;
/** How long the library stays open in the browser that opened the link. */
export const LIBRARY_ACCESS_TTL_MINUTES = 60;
/** Links sent to one address per hour, at most (past it, the same answer, and nothing sent). */
export const PURCHASES_LINKS_PER_HOUR = 3;
/** Orders a library lists, newest first. */
export const LIBRARY_ORDERS_SHOWN = 100;
/** Receipts sent again per order per hour, at most. */
export const RECEIPT_RESENDS_PER_HOUR = 2;

/** POST /purchases/link: the same 202 answer whether the address bought anything or not. */
export const purchasesLinkBodySchema = z.object({ email: emailSchema, locale: localeSchema });
export type PurchasesLinkBody = z.infer<typeof purchasesLinkBodySchema>;

/** POST /purchases/open/{token}: spends the e-mailed link; the library's access for this browser. */
export const purchasesOpenParamsSchema = z.object({ token: emailedTokenSchema });
export const libraryAccessSchema = z.object({
  /** Sent back as the `x-library-token` header; kept by the browser for the session only. */
  accessToken: z.string().min(32),
  expiresAt: z.iso.datetime(),
});
export type LibraryAccess = z.infer<typeof libraryAccessSchema>;

/** The header that carries a library's access token. */
export const LIBRARY_TOKEN_HEADER = "x-library-token";

/**
 * One order of the library: the order page's figures and files, and its token (the order page is
 * `/order/{orderToken}`; the library names an order by it, never by the platform's id).
 */
export const libraryOrderSchema = orderViewSchema.extend({ orderToken: z.string() });
export type LibraryOrder = z.infer<typeof libraryOrderSchema>;

/** GET /purchases/library (with the access header) and GET /purchases (signed in). */
export const librarySchema = z.object({
  email: z.string(),
  orders: z.array(libraryOrderSchema),
});
export type Library = z.infer<typeof librarySchema>;

/** POST /purchases/library/orders/{orderToken}/receipt (library access or a session). */
export const libraryOrderParamsSchema = z.object({ orderToken: orderTokenSchema });
