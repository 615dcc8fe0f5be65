import { hash, hkdfSync } from "node:crypto";

/** What a click is deduplicated and limited by: keyed hashes only, never the address itself. */
export interface VisitorKeys {
  /** The address and user agent: one browser on one machine. */
  visitor: string;
  /** The address alone (an IPv6 /64): the machine or network the visits come from. */
  address: string;
}

/** Only what an IPv6 address is written with; anything else is kept whole (see addressOf). */
const ipv6Text = /^[0-9a-f:.]+$/i;

/**
 * An IPv6 client usually holds a whole /64 and can pick any address in it: the /64 is its address.
 * IPv4 (and IPv4-mapped IPv6) stays whole. Runs on every click, so it reads only the first four
 * groups and tells IPv6 by its characters rather than by node:net's full validation (a large regular
 * expression): the address comes from the socket or from the trusted proxy's X-Forwarded-For, and a
 * malformed one only needs to map to a key of its own.
 */
export function addressOf(ip: string): string {
  if (!ip.includes(":") || !ipv6Text.test(ip)) return ip;
  const lower = ip.toLowerCase();
  if (lower.startsWith("::ffff:")) return lower;
  const gap = lower.indexOf("::");
  const left = splitGroups(gap === -1 ? lower : lower.slice(0, gap));
  // Groups after "::" end the address: the right part's groups are the last ones of the eight.
  const right = gap === -1 ? [] : splitGroups(lower.slice(gap + 2));
  const rightStart = 8 - right.length;
  let prefix = "";
  for (let i = 0; i < 4; i += 1) {
    const group = i < left.length ? left[i] : i >= rightStart ? right[i - rightStart] : "0";
    prefix += `${i === 0 ? "" : ":"}${withoutLeadingZeros(group ?? "0")}`;
  }
  return `${prefix}::/64`;
}

const splitGroups = (part: string): string[] => (part === "" ? [] : part.split(":"));

function withoutLeadingZeros(group: string): string {
  let i = 0;
  while (i < group.length - 1 && group.charCodeAt(i) === 48) i += 1;
  return i === 0 ? group : group.slice(i);
}

/**
 * A visitor's keys: SHA3-256 of a 256-bit key (derived from APP_SECRET) followed by the client
 * address and user agent, and by the address alone, cut to 128 bits. SHA-3 has no length extension,
 * so the key as a prefix makes it a keyed hash (a MAC) in one call, where HMAC-SHA256 took two
 * hashes and a key schedule per key (about twice the time, decision 033). The address is never
 * stored or logged; the keys live only in the dedup sets (memory or Redis) for at most an hour, and
 * cannot be reversed without the key.
 */
export function visitorKeys(appSecret: string): (ip: string, userAgent: string) => VisitorKeys {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "salelink", "click-visitors", 32)).toString(
    "base64url",
  );
  return (ip, userAgent) => {
    const address = addressOf(ip);
    return {
      visitor: hash("sha3-256", `${key}\nvisitor\n${address}\n${userAgent}`, "base64url").slice(0, 22),
      address: hash("sha3-256", `${key}\naddress\n${address}`, "base64url").slice(0, 22),
    };
  };
}
