/*
 * The buyer pages exist under a public and an /app prefix (spec section 2). A buyer who started on
 * one stays on it through payment, result and order.
 */
export type BuyerArea = "public" | "app";

export const linkPathIn = (area: BuyerArea, token: string) =>
  area === "app" ? `/app/links/${token}` : `/v/${token}`;

export const checkoutPathIn = (area: BuyerArea, token: string) =>
  area === "app" ? `/app/payment/${token}` : `/checkout/${token}`;

export const orderPathIn = (area: BuyerArea, token: string) =>
  area === "app" ? `/app/links/order/${token}` : `/order/${token}`;

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

/** The API's failure reasons (order.failureReason, also carried in `?reason=`) as the texts we show. */
export type FailureText = "declined" | "refused" | "provider" | "soldOut" | "promoUsedUp" | "generic";
export function failureText(reason: string | null | undefined): FailureText {
  // The payment went through but could not be a sale (issue 16): it is refunded automatically.
  if (reason === "sold-out") return "soldOut";
  if (reason === "promo-used-up") return "promoUsedUp";
  if (reason === "card-declined" || reason === "declined" || reason === "unknown-test-card")
    return "declined";
  if (reason === "authentication-failed") return "refused";
  if (reason === "provider-unavailable") return "provider";
  return "generic";
}
