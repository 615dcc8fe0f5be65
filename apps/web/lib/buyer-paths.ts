/*
 * The buyer pages exist under a public and an /app prefix (spec section 2). A buyer who started on
 * one stays on it through the link, the creator page, payment, result and order: every link between
 * buyer pages is built here from the area the current page belongs to, never written per page.
 */
export type BuyerArea = "public" | "app";

const enc = encodeURIComponent;

export const linkPathIn = (area: BuyerArea, token: string): string =>
  area === "app" ? `/app/links/${enc(token)}` : `/v/${enc(token)}`;

export const creatorPathIn = (area: BuyerArea, id: string): string =>
  area === "app" ? `/app/creator/${enc(id)}` : `/c/${enc(id)}`;

/** The payment page, with the promo code the buyer applied on the link page (checked again there). */
export function checkoutPathIn(area: BuyerArea, token: string, promo?: string): string {
  const path = area === "app" ? `/app/payment/${enc(token)}` : `/checkout/${enc(token)}`;
  return promo ? `${path}?promo=${enc(promo)}` : path;
}

export const orderPathIn = (area: BuyerArea, token: string): string =>
  area === "app" ? `/app/links/order/${enc(token)}` : `/order/${enc(token)}`;

/** Where a payment returns to (the sandbox form and Stripe's `return_url`), in the buyer's area. */
export function resultPathIn(
  area: BuyerArea,
  outcome: "success" | "error",
  orderId: string,
  reason?: string,
): string {
  const query = new URLSearchParams({ order: orderId });
  if (reason) query.set("reason", reason);
  return `${area === "app" ? "/app/payment" : "/payment"}/${outcome}?${query}`;
}
