import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * The unsubscribe link's token (decision 038): the customer row's id and an HMAC of it, keyed from
 * the app secret. Nothing is stored: the signature is the proof that the link came from an update
 * sent to that buyer. It never expires; unsubscribing is idempotent.
 */

const unsubscribeKey = (appSecret: string): Buffer =>
  createHmac("sha256", appSecret).update("buyer-updates-unsubscribe").digest();

const signatureOf = (appSecret: string, customerId: string): Buffer =>
  createHmac("sha256", unsubscribeKey(appSecret)).update(customerId).digest();

export function unsubscribeToken(appSecret: string, customerId: string): string {
  return `${customerId}.${signatureOf(appSecret, customerId).toString("base64url")}`;
}

/** The customer id a token names, or null when its signature does not hold (compared in constant time). */
export function customerOfToken(appSecret: string, token: string): string | null {
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const customerId = token.slice(0, dot);
  // The text, not its decoded bytes: base64's spare bits would let two spellings of one signature pass.
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signatureOf(appSecret, customerId).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return customerId;
}
