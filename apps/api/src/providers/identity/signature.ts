import { createHmac, timingSafeEqual } from "node:crypto";
import { IdentitySignatureError, type WebhookHeaders } from "./types.ts";

/*
 * Veriff's request signing, which the sandbox uses too: X-AUTH-CLIENT carries the integration's API
 * key and X-HMAC-SIGNATURE the hex HMAC-SHA256 of the raw body with the shared secret. The scheme has
 * no timestamp, so a replayed delivery is authentic: it is harmless because each event is applied
 * once and a decision is never undone.
 */

export const AUTH_CLIENT_HEADER = "x-auth-client";
export const SIGNATURE_HEADER = "x-hmac-signature";

export function signBody(rawBody: string | Buffer, secret: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** The headers of a signed request or delivery, as Veriff sends them. */
export function signedHeaders(
  rawBody: string | Buffer,
  apiKey: string,
  secret: string,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "X-AUTH-CLIENT": apiKey,
    "X-HMAC-SIGNATURE": signBody(rawBody, secret),
  };
}

const single = (value: string | string[] | undefined): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** Byte-wise comparison that takes the same time wherever the first difference is. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function verifySignedDelivery(options: {
  rawBody: Buffer;
  headers: WebhookHeaders;
  apiKey: string;
  secret: string;
}): void {
  const client = single(options.headers[AUTH_CLIENT_HEADER]);
  const signature = single(options.headers[SIGNATURE_HEADER]);
  if (!client || !signature) throw new IdentitySignatureError("Missing X-AUTH-CLIENT or X-HMAC-SIGNATURE");
  if (!sameText(client, options.apiKey)) throw new IdentitySignatureError("Unknown client key");
  // Hex is case-insensitive; ours is lower case.
  if (!sameText(signature.toLowerCase(), signBody(options.rawBody, options.secret)))
    throw new IdentitySignatureError("Signature does not match");
}
