import { createHmac, hkdfSync } from "node:crypto";
import { isIPv6 } from "node:net";

/** What a click is deduplicated and limited by: keyed hashes only, never the address itself. */
export interface VisitorKeys {
  /** The address and user agent: one browser on one machine. */
  visitor: string;
  /** The address alone (an IPv6 /64): the machine or network the visits come from. */
  address: string;
}

/**
 * An IPv6 client usually holds a whole /64 and can pick any address in it: the /64 is its address.
 * IPv4 (and IPv4-mapped IPv6) stays whole.
 */
export function addressOf(ip: string): string {
  if (!isIPv6(ip) || ip.startsWith("::ffff:")) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * A visitor's keys: HMAC-SHA256 of the client address and user agent, and of the address alone, cut
 * to 128 bits. The address is never stored or logged; the keys live only in the dedup sets (memory
 * or Redis) for at most an hour, and cannot be reversed without the key derived from APP_SECRET.
 */
export function visitorKeys(appSecret: string): (ip: string, userAgent: string) => VisitorKeys {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "salelink", "click-visitors", 32));
  return (ip, userAgent) => {
    const address = addressOf(ip);
    return {
      visitor: createHmac("sha256", key)
        .update(address)
        .update("\n")
        .update(userAgent)
        .digest("base64url")
        .slice(0, 22),
      address: createHmac("sha256", key).update("address\n").update(address).digest("base64url").slice(0, 22),
    };
  };
}
