import { createHmac, hkdfSync } from "node:crypto";

/**
 * A visitor's key: HMAC-SHA256 of the client address and user agent, cut to 128 bits. The address is
 * never stored or logged; the key lives only in the dedup set (memory or Redis) for at most an hour,
 * and cannot be reversed without the key derived from APP_SECRET.
 */
export function visitorKeys(appSecret: string): (ip: string, userAgent: string) => string {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "salelink", "click-visitors", 32));
  return (ip, userAgent) =>
    createHmac("sha256", key).update(ip).update("\n").update(userAgent).digest("base64url").slice(0, 22);
}
