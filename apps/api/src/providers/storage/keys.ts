import { randomUUID } from "node:crypto";

/** A key outside the allowed characters, length or key space (never a path out of the store). */
export class InvalidObjectKeyError extends Error {}

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

/**
 * The key spaces. A paid original and its public renditions get unrelated random names in separate
 * spaces: the public name of a preview says nothing about where its original is.
 */
export const KEY_SPACES = {
  /** Paid content: only ever reached through a signed URL of an original-* purpose. */
  original: "originals",
  /** Public renditions, served by GET /media/<space>/<name>. */
  preview: "previews",
  cover: "covers",
} as const;

/** Where paid originals were kept before the key spaces were split (read only, never written). */
const LEGACY_ORIGINALS = "uploads";

/**
 * What a signed URL grants, bound into its signature with the exact key: the original shown in the
 * browser, the original saved as a file, or a public rendition.
 */
export const SIGNED_URL_PURPOSES = ["original-view", "original-download", "preview"] as const;
export type SignedUrlPurpose = (typeof SIGNED_URL_PURPOSES)[number];

const purposeSpaces: Record<SignedUrlPurpose, readonly string[]> = {
  "original-view": [KEY_SPACES.original, LEGACY_ORIGINALS],
  "original-download": [KEY_SPACES.original, LEGACY_ORIGINALS],
  preview: [KEY_SPACES.preview, KEY_SPACES.cover],
};

/** Whether `key` lies in the key space `purpose` may open (a preview signature never opens an original). */
export function keyFitsPurpose(key: string, purpose: SignedUrlPurpose): boolean {
  const [space] = key.split("/", 1);
  return purposeSpaces[purpose].some((allowed) => allowed === space);
}

/** Throws unless `key` is a valid key of the space `purpose` grants. */
export function assertKeyForPurpose(key: string, purpose: SignedUrlPurpose): void {
  assertValidKey(key);
  if (!keyFitsPurpose(key, purpose))
    throw new InvalidObjectKeyError(
      `A ${purpose} URL cannot be signed for ${JSON.stringify(key.slice(0, 100))}`,
    );
}

/** A fresh key under `prefix` ("originals", "previews"): unguessable and never reused. */
export function newObjectKey(prefix: string): string {
  const key = `${prefix.replace(/\/+$/, "")}/${randomUUID()}`;
  assertValidKey(key);
  return key;
}
