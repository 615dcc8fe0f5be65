import "server-only";
import {
  type UnsubscribeView,
  unsubscribeTokenSchema,
  unsubscribeViewSchema,
} from "@salelink/contracts/updates";
import { serverEnv } from "@/lib/server-env.ts";

/*
 * The buyer's unsubscribe link (issue 21), called by this server: the page reads (a GET never
 * unsubscribes: mail scanners prefetch links), its form's POST unsubscribes, JavaScript or not.
 */

const endpoint = (token: string) =>
  `${serverEnv.apiInternalUrl}/updates/unsubscribe/${encodeURIComponent(token)}`;

/** Whose updates the link leaves and whether it already did; null for a link that is not valid. */
export async function describeUnsubscribe(token: string): Promise<UnsubscribeView | null> {
  if (!unsubscribeTokenSchema.safeParse(token).success) return null;
  const res = await fetch(endpoint(token), { headers: { accept: "application/json" }, cache: "no-store" });
  if (res.status === 404 || res.status === 400) return null;
  if (!res.ok) throw new Error(`GET /updates/unsubscribe: ${res.status}`);
  return unsubscribeViewSchema.parse(await res.json());
}

/** Unsubscribes (idempotent); false when the link is not valid or the API failed. */
export async function confirmUnsubscribe(token: string): Promise<boolean> {
  if (!unsubscribeTokenSchema.safeParse(token).success) return false;
  const res = await fetch(endpoint(token), { method: "POST", cache: "no-store" });
  return res.ok;
}
