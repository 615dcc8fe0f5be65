import { createHmac } from "node:crypto";
import type { Config } from "../../config.ts";

/**
 * The order page's secret token, derived from the order id with the app secret: never stored (its
 * hash is, for look-ups), and recomputed for the browser that paid (success page) or the receipt.
 */
export function orderAccessToken(config: Config, orderId: string): string {
  return createHmac("sha256", config.appSecret).update(`order-access:${orderId}`).digest("base64url");
}
