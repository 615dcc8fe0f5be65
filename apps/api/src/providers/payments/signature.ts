import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookSignatureError } from "./types.ts";

/*
 * Stripe's webhook signature scheme, which the sandbox uses too: the header is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (several v1 values allowed, for secret
 * rotation). A delivery is authentic when one v1 matches and t is within the tolerance of now.
 */

export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signPayload(rawBody: string | Buffer, secret: string, timestampSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${timestampSeconds}.`).update(rawBody).digest("hex");
  return `t=${timestampSeconds},v1=${mac}`;
}

export function verifySignature(options: {
  rawBody: Buffer;
  header: string | undefined;
  secret: string;
  toleranceSeconds?: number;
  nowSeconds?: number;
}): void {
  const { rawBody, header, secret } = options;
  if (!header) throw new WebhookSignatureError("No signature header");
  const parts = header.split(",").map((p) => p.trim().split("="));
  const timestamp = Number(parts.find(([k]) => k === "t")?.[1]);
  const signatures = parts.filter(([k]) => k === "v1").map(([, v]) => v ?? "");
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new WebhookSignatureError("Malformed signature header");
  }
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance)
    throw new WebhookSignatureError("Timestamp outside the tolerance");
  const expected = Buffer.from(
    createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex"),
    "utf8",
  );
  const ok = signatures.some((s) => {
    const given = Buffer.from(s, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new WebhookSignatureError("No matching signature");
}
