// The buyer pages' paths live in lib/buyer-paths.ts (one builder for every buyer page).
export {
  type BuyerArea,
  checkoutPathIn,
  creatorPathIn,
  linkPathIn,
  orderPathIn,
  resultPathIn,
} from "@/lib/buyer-paths.ts";

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
