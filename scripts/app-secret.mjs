// The APP_SECRET of `npm start`: made on first run, kept in the data directory, reused afterwards.
// Never a constant in the source: a public secret lets anyone sign storage URLs and webhooks.
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import path from "node:path";

/** 48 random bytes, base64url: 64 characters, well over the API's 32. */
const SECRET_BYTES = 48;
const MIN_LENGTH = 32;

export class AppSecretError extends Error {}

/**
 * Answers the secret kept in `<dataDir>/app-secret`, creating it (mode 0600 from the start, with
 * O_EXCL so two starts never write two secrets) when absent. Refuses a file others can read or
 * write: the secret would no longer be one.
 */
export function loadOrCreateAppSecret(dataDir) {
  const file = path.join(path.resolve(dataDir), "app-secret");
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  let created = false;
  try {
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, `${randomBytes(SECRET_BYTES).toString("base64url")}\n`);
    } finally {
      closeSync(fd);
    }
    created = true;
  } catch (err) {
    if (err?.code !== "EEXIST") throw err;
  }
  const info = statSync(file);
  // Windows has no such permission bits; elsewhere group and others must have none.
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
    throw new AppSecretError(
      `${file} is readable or writable by others (mode ${mode}). Run: chmod 600 ${file}`,
    );
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < MIN_LENGTH) {
    throw new AppSecretError(
      `${file} holds fewer than ${MIN_LENGTH} characters. Delete it to have a new secret made (sessions' 2FA secrets sealed with the old one become unreadable).`,
    );
  }
  return { secret, file, created };
}
