import type { SigninBody } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { timingDummyHash, verifyPassword } from "../../lib/passwords.ts";
import { findUserByEmail } from "./queries.ts";
import { createSession } from "./sessions.ts";

export const invalidCredentials = () =>
  new AppError("InvalidCredentialsException", "Invalid user credentials. Please try again.");

/** Checks the credentials and opens a new session; answers the same way for unknown e-mails. */
export async function signIn(db: Db, config: Config, body: SigninBody): Promise<{ token: string }> {
  const user = await findUserByEmail(db, body.email);
  const ok = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), body.password);
  if (!user || !ok) throw invalidCredentials();
  if (!user.emailVerifiedAt) {
    throw new AppError("UnverifiedAccountException", "Please verify your e-mail address before signing in.");
  }
  if (user.twoFactorEnabledAt) {
    throw new AppError(
      "TwoFactorAuthenticationRequiredException",
      "This account is protected by two-factor authentication.",
    );
  }
  return { token: await createSession(db, user.id, config.SESSION_TTL_DAYS) };
}
