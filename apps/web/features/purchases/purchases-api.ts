import { messageResponseSchema } from "@salelink/contracts/auth";
import { LIBRARY_TOKEN_HEADER, libraryAccessSchema, librarySchema } from "@salelink/contracts/purchases";
import { api } from "@/lib/api.ts";

/*
 * The buyer's library calls (issue 21). These pages are not in the shell: they may import the
 * contracts (and zod) directly; `/v/{token}`'s budget never sees them.
 */

/** The header that opens the library; none when the account's session does. */
export const accessHeaders = (accessToken: string | null): Record<string, string> =>
  accessToken ? { [LIBRARY_TOKEN_HEADER]: accessToken } : {};

export const requestLibraryLink = (email: string, locale: string) =>
  api("/purchases/link", { method: "POST", body: { email, locale }, schema: messageResponseSchema });

export const openLibraryLink = (token: string) =>
  api(`/purchases/open/${encodeURIComponent(token)}`, { method: "POST", schema: libraryAccessSchema });

export const readLibrary = (accessToken: string, signal?: AbortSignal) =>
  api("/purchases/library", { headers: accessHeaders(accessToken), schema: librarySchema, signal });

/** Sends the order's receipt again; the API's message says so in the visitor's language. */
export const resendReceipt = (orderToken: string, accessToken: string | null) =>
  api(`/purchases/library/orders/${encodeURIComponent(orderToken)}/receipt`, {
    method: "POST",
    headers: accessHeaders(accessToken),
    schema: messageResponseSchema,
  });
