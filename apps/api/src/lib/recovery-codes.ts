import { createHash, randomInt } from "node:crypto";

/**
 * One-time recovery codes for an account whose authenticator is lost, shaped like "abcd-efgh-jkmn".
 * The alphabet leaves out i, l, o, 0 and 1, so nothing printed can be misread, and nothing has to
 * be folded back on input.
 */
export const RECOVERY_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const GROUPS = 3;
const GROUP_LENGTH = 4;
export const RECOVERY_CODE_LENGTH = GROUPS * GROUP_LENGTH;
export const DEFAULT_RECOVERY_CODE_COUNT = 10;

function generateRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = "";
    // randomInt draws without modulo bias, which matters with an alphabet of 31.
    for (let i = 0; i < GROUP_LENGTH; i += 1)
      group += RECOVERY_CODE_ALPHABET.charAt(randomInt(RECOVERY_CODE_ALPHABET.length));
    groups.push(group);
  }
  return groups.join("-");
}

/** `count` distinct codes, to show the user once; only their hashes are stored. */
export function generateRecoveryCodes(count: number = DEFAULT_RECOVERY_CODE_COUNT): string[] {
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new RangeError("count must be 1 to 100");
  const codes = new Set<string>();
  while (codes.size < count) codes.add(generateRecoveryCode());
  return [...codes];
}

/**
 * The form a code is hashed in: lower case, without spaces or dashes (typographic ones too, from word processors), so "ABCD EFGH-JKMN" typed
 * from paper matches. Compatibility forms (full-width letters from some keyboards) fold to ASCII.
 */
export function normaliseRecoveryCode(input: string): string {
  return input
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\-\u2010-\u2015\u2212]/g, "");
}

/** True when the input, once normalised, could be a recovery code at all (cheap early refusal). */
export function isRecoveryCodeShape(input: string): boolean {
  const code = normaliseRecoveryCode(input);
  if (code.length !== RECOVERY_CODE_LENGTH) return false;
  for (const char of code) if (!RECOVERY_CODE_ALPHABET.includes(char)) return false;
  return true;
}

/**
 * SHA-256 of the normalised code, hex. A plain fast hash is enough here, unlike for passwords: each
 * code is 12 characters drawn uniformly from 31 symbols by a CSPRNG, about 59 bits, so there is no
 * dictionary to try and brute-forcing even one code from a leaked hash takes around 2^58 hashes.
 * Being deterministic, the hash is also the lookup key, so checking a code is one indexed query.
 */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normaliseRecoveryCode(code)).digest("hex");
}
