import { createHmac, hkdfSync } from "node:crypto";
import type { Config } from "../../../config.ts";
import type { DbOrTx } from "../../../db/client.ts";
import { addressOf } from "../clicks/visitor.ts";
import { type AccountSignalKind, insertSignal } from "./queries.ts";

/*
 * Signals that tie two accounts to one person, for the self-referral checks (service.ts). Only
 * keyed hashes are stored (HMAC-SHA256, key derived from APP_SECRET): a database dump tells neither
 * the address, the user agent nor the IBAN, and without the secret the hashes cannot be tested
 * against guesses.
 */

const keys = new Map<string, Buffer>();

function signalKey(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "salelink", "account-signals", 32));
    keys.set(appSecret, key);
  }
  return key;
}

export function signalHash(config: Config, kind: AccountSignalKind, value: string): string {
  return createHmac("sha256", signalKey(config.appSecret)).update(`${kind}\n${value}`).digest("base64url");
}

/** The sign-up's client: its address (an IPv6 /64) and user agent together are one device. */
export const deviceValue = (ip: string, userAgent: string) => `${addressOf(ip)}\n${userAgent}`;

/** An IBAN as banks compare it: no spaces, upper case. */
export const ibanValue = (iban: string) => iban.replace(/\s+/g, "").toUpperCase();

/** Providers that ignore dots in the local part (and treat googlemail.com as gmail.com). */
const dotlessDomains: Readonly<Record<string, string>> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * The mailbox an address reaches: lower case, without a `+tag` (every large provider delivers
 * `ada+x@` to `ada@`), without dots for gmail-like providers. Two accounts whose addresses normalise
 * alike read one mailbox.
 */
export function normaliseEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email.trim().toLowerCase();
  let local = email.slice(0, at).trim().toLowerCase();
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  local = local.split("+")[0] ?? local;
  const dotless = dotlessDomains[domain];
  if (dotless) {
    domain = dotless;
    local = local.replace(/\./g, "");
  }
  return `${local}@${domain}`;
}

/** Keeps a signal of the account (once). */
export async function recordSignal(
  tx: DbOrTx,
  config: Config,
  userId: string,
  kind: AccountSignalKind,
  value: string,
): Promise<void> {
  await insertSignal(tx, { userId, kind, hash: signalHash(config, kind, value) });
}
