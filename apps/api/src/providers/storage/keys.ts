import { randomUUID } from "node:crypto";
import { InvalidObjectKeyError } from "./types.ts";

const KEY_PATTERN = /^[A-Za-z0-9/_.-]+$/;
/** S3's own limit, in bytes; all allowed characters are one byte. */
const MAX_KEY_LENGTH = 1024;

/**
 * Throws unless `key` stays inside the storage's namespace: no "..", no absolute path, no empty or
 * "." segment, nothing outside a small character set (which also rules out backslashes, NUL and
 * percent-encoding tricks on both disk and S3).
 */
export function assertValidKey(key: string): void {
  const valid =
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    KEY_PATTERN.test(key) &&
    !key.includes("..") &&
    !key.startsWith("/") &&
    key.split("/").every((segment) => segment !== "" && segment !== ".");
  if (!valid) throw new InvalidObjectKeyError(`Invalid object key: ${JSON.stringify(key.slice(0, 100))}`);
}

/** A fresh key under `prefix` ("uploads", "previews/abc"): unguessable and never reused. */
export function newObjectKey(prefix: string): string {
  const key = `${prefix.replace(/\/+$/, "")}/${randomUUID()}`;
  assertValidKey(key);
  return key;
}
