import { createHash, randomBytes } from "node:crypto";

/** A random 256-bit token, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString("base64url");

/** Tokens are stored as their SHA-256 so a database leak yields nothing usable. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex");
