import { api } from "@/lib/api.ts";

/** The price of a link with a promo code, as the API computes it (its schema loads only when asked). */
export function fetchQuote(token: string, promoCode: string) {
  return api(`/public/links/${encodeURIComponent(token)}/quote`, {
    method: "POST",
    body: { promoCode },
    schema: () => import("@salelink/contracts/catalogue").then((m) => m.quoteResponseSchema),
  });
}
