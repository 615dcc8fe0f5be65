import { createHmac } from "node:crypto";

/*
 * How a referred account (or a buyer, in the admin console) is shown to someone who must not learn
 * who it is: recognisable by its owner, useless to contact a stranger, stable across loads.
 */

/** "a•••@example.com": enough for the owner to recognise a friend, not to contact a stranger. */
export function maskEmail(email: string): string {
  const [name = "", domain = ""] = email.split("@");
  return `${name.slice(0, 1)}•••@${domain}`;
}

/** A referred account's stable pseudonym: the same on every load, and not its account id. */
export function referralPseudonym(appSecret: string, userId: string): string {
  return createHmac("sha256", appSecret).update(`referral:${userId}`).digest("base64url").slice(0, 22);
}
