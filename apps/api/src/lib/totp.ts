import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { base32Decode, base32Encode } from "./base32.ts";

/**
 * Time-based one-time passwords, RFC 6238 over RFC 4226 (HOTP) with HMAC-SHA-1: the only variant
 * every authenticator app supports, which is why there is no algorithm option.
 */

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ISSUER = "Salelink";
/** RFC 4226 section 4 recommends a 160-bit shared secret. */
const SECRET_BYTES = 20;
/** RFC 4226 requires at least 6 digits; 8 is what the RFC 6238 test vectors use. */
const MIN_DIGITS = 6;
const MAX_DIGITS = 8;
/** Beyond this a stolen code stays usable for minutes, which defeats the point. */
const MAX_WINDOW = 10;

/** A fresh 160-bit secret, base32 without padding (32 characters), to store and show once. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

function checkDigits(digits: number): void {
  if (!Number.isInteger(digits) || digits < MIN_DIGITS || digits > MAX_DIGITS) {
    throw new RangeError(`digits must be an integer from ${MIN_DIGITS} to ${MAX_DIGITS}`);
  }
}

/** RFC 4226 HOTP value of one counter, zero-padded to `digits`. */
export function hotp(key: Uint8Array, counter: number, digits: number = TOTP_DIGITS): string {
  checkDigits(digits);
  if (!Number.isSafeInteger(counter) || counter < 0)
    throw new RangeError("counter must be a non-negative integer");
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  // Dynamic truncation (RFC 4226 section 5.3): the low nibble of the last byte picks 4 bytes,
  // whose top bit is dropped so the value reads the same as a signed or unsigned integer.
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The RFC 6238 time step of an instant (T0 = 0). */
export function totpStep(time: Date | number = Date.now()): number {
  const ms = typeof time === "number" ? time : time.getTime();
  return Math.floor(ms / 1000 / TOTP_STEP_SECONDS);
}

/** The code an authenticator shows at `time` (a Date or milliseconds since the epoch). */
export function totpCode(
  secret: string,
  time: Date | number = Date.now(),
  digits: number = TOTP_DIGITS,
): string {
  return hotp(base32Decode(secret), totpStep(time), digits);
}

export interface VerifyTotpOptions {
  /** The instant to check against; now by default. Date or milliseconds since the epoch. */
  time?: Date | number;
  /** Steps accepted either side of the current one, for clock drift and typing time. */
  window?: number;
  digits?: number;
  /**
   * The step of the last code this account used: it and every earlier step are refused, so a
   * code seen over a shoulder or in a log cannot be played again inside its window.
   */
  lastUsedStep?: number | null;
}

/**
 * Checks a code against the steps within `window` of `time`. Answers the step that matched, for the
 * caller to store as `lastUsedStep`, or null. Input with anything but digits (after removing the
 * spaces apps show between groups) is refused outright.
 */
export function verifyTotp(secret: string, code: string, options: VerifyTotpOptions = {}): number | null {
  const { time = Date.now(), window = 1, digits = TOTP_DIGITS, lastUsedStep = null } = options;
  checkDigits(digits);
  if (!Number.isInteger(window) || window < 0 || window > MAX_WINDOW) {
    throw new RangeError(`window must be an integer from 0 to ${MAX_WINDOW}`);
  }
  const entered = code.replace(/\s+/g, "");
  if (!new RegExp(`^[0-9]{${digits}}$`).test(entered)) return null;
  const key = base32Decode(secret);
  const given = Buffer.from(entered);
  const current = totpStep(time);
  let matched: number | null = null;
  // Every step in the window is compared, in constant time and without stopping at a match, so the
  // time taken says nothing about which step (or how much of a code) was right. The earliest match
  // wins: the rare code valid at two steps must not burn the later one.
  for (let step = current - window; step <= current + window; step += 1) {
    if (step < 0) continue;
    const expected = Buffer.from(hotp(key, step, digits));
    const equal = timingSafeEqual(expected, given);
    const usable = lastUsedStep === null || step > lastUsedStep;
    if (equal && usable && matched === null) matched = step;
  }
  return matched;
}

export interface OtpauthUriParams {
  secret: string;
  /** Shown in the app under the issuer; usually the e-mail address. */
  account: string;
  issuer?: string;
}

/**
 * The Key URI Format read by authenticator apps: the issuer goes both in the label prefix (older
 * apps) and as a parameter (newer ones). encodeURIComponent, not URLSearchParams, because some
 * apps show a "+" literally where a space was meant.
 */
export function otpauthUri({ secret, account, issuer = TOTP_ISSUER }: OtpauthUriParams): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = [
    `secret=${encodeURIComponent(secret)}`,
    `issuer=${encodeURIComponent(issuer)}`,
    "algorithm=SHA1",
    `digits=${TOTP_DIGITS}`,
    `period=${TOTP_STEP_SECONDS}`,
  ].join("&");
  return `otpauth://totp/${label}?${query}`;
}

/** The URI as an SVG QR code, to inline in the set-up page (no image request carrying the secret). */
export function otpauthQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
