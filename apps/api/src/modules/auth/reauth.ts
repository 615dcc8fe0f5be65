import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { validation } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { findPasswordHash } from "./queries.ts";
import type { SessionUser } from "./sessions.ts";

/**
 * Changes that could lock the owner out of the account (a second factor, deletion) need proof that
 * the person at the keyboard is the owner, not whoever holds the session: the current password, or
 * a sign-in within REAUTH_WINDOW_MINUTES. Both failures are a 400 on the `password` field.
 */
export async function requireRecentAuth(
  db: DbOrTx,
  config: Config,
  user: SessionUser,
  password: string | undefined,
): Promise<void> {
  if (password === undefined) {
    const windowMs = config.REAUTH_WINDOW_MINUTES * 60_000;
    if (Date.now() - user.signedInAt.getTime() < windowMs) return;
    throw validation({ password: ["Enter your current password."] });
  }
  const passwordHash = await findPasswordHash(db, user.id);
  if (!passwordHash || !(await verifyPassword(passwordHash, password))) {
    throw validation({ password: ["The password is not correct."] });
  }
}
