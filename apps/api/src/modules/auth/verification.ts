import { emailedTokenSchema, type Locale, type SignupBody } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { affiliateSignup } from "../affiliates/account-events.ts";
import { reviewReferral } from "../affiliates/self-referral/service.ts";
import { queueMail } from "../mail/jobs.ts";
import {
  deleteRecoveryCodes,
  findActiveCampaignId,
  findUserByEmail,
  insertUserUnlessTaken,
  markUserVerified,
} from "./queries.ts";
import { type AuthDeps, requireHuman, webLink } from "./service.ts";
import { deleteUserSessions } from "./sessions.ts";
import { consumeVerificationToken, issueUserToken, retireUserTokens, type SignupBinding } from "./tokens.ts";

/*
 * Pre-account hijacking (issue 16, decision 019): an address is anyone's to sign up with until its
 * mailbox confirms it, so nothing a sign-up sets counts before that. Each sign-up e-mails its own
 * link, bound to its own password, language and referral, which the account gets when that link is
 * followed, if it was the address's only sign-up. Otherwise (several sign-ups, or a link resent on
 * request) the person following the link chooses the password. Verifying ends every session,
 * second factor and other link of the account.
 */

/** The account of an address that is still waiting for its mailbox to confirm it, if any. */
async function pendingUserByEmail(db: DbOrTx, email: string) {
  const user = await findUserByEmail(db, email);
  return user && !user.emailVerifiedAt && !user.deletedAt ? user : null;
}

const unbound: SignupBinding = { passwordHash: null, locale: null, campaignId: null };

async function queueVerification(
  tx: DbOrTx,
  config: Config,
  user: { id: string; email: string; locale: Locale },
  binding: SignupBinding,
) {
  const token = await issueUserToken(tx, user.id, "verify-email", binding);
  await queueMail(tx, {
    to: user.email,
    template: "verify-email",
    locale: binding.locale ?? user.locale,
    params: { url: webLink(config, "/", { emailToken: token }) },
  });
}

/**
 * Creates the account (or, for an address still waiting for confirmation, a new link bound to this
 * sign-up) and queues its verification e-mail in one transaction. A confirmed address gets the same
 * answer and no e-mail, so the form reveals nothing.
 */
export async function signUp(
  deps: AuthDeps,
  body: SignupBody,
  ref: string | undefined,
  ip: string,
  userAgent = "",
): Promise<void> {
  await requireHuman(deps, body.turnstileToken, ip);
  // Hashed before the lookup so every answer takes the same time.
  const passwordHash = await hashPassword(body.password);
  const campaignId = ref ? await findActiveCampaignId(deps.db, ref) : null;
  const binding: SignupBinding = { passwordHash, locale: body.locale, campaignId };
  await deps.db.transaction(async (tx) => {
    const created = await insertUserUnlessTaken(tx, {
      email: body.email,
      passwordHash,
      locale: body.locale,
      referredByCampaignId: binding.campaignId,
    });
    // Its first campaign and sign-up device signal; flags a self-referral (issue 16).
    if (created) await affiliateSignup(tx, deps.config, { ...created, ip, userAgent });
    const user = created ?? (await pendingUserByEmail(tx, body.email));
    if (user) await queueVerification(tx, deps.config, user, binding);
  });
  deps.pokeJobs();
}

/**
 * Confirms the address with a link from the mailbox. The account then has the password, language
 * and referral of the sign-up that link was sent for, or the password given here (asked for when
 * the link alone cannot decide, see `consumeVerificationToken`) with the caller's `locale`.
 */
export async function verifyEmail(
  deps: AuthDeps,
  token: string,
  password: string | undefined,
  locale: Locale,
): Promise<void> {
  // A link mangled on its way (cut short by a mail client, an extra character) is an invalid link
  // to whoever follows it, like an unknown or expired one: not "some fields are invalid".
  if (!emailedTokenSchema.safeParse(token).success) throw invalidVerificationLink();
  const chosenHash = password === undefined ? null : await hashPassword(password);
  const outcome = await deps.db.transaction(async (tx) => {
    const use = await consumeVerificationToken(tx, token, chosenHash !== null);
    if (use.kind !== "used") return use.kind;
    const { userId } = use;
    // A password chosen here owes nothing to any sign-up: neither its language nor its referral.
    const binding = chosenHash ? unbound : use.binding;
    const passwordHash = chosenHash ?? binding.passwordHash;
    if (!passwordHash) return "invalid";
    const done = await markUserVerified(tx, userId, {
      passwordHash,
      locale: binding.locale ?? locale,
      referredByCampaignId: binding.campaignId,
    });
    if (!done) return "invalid";
    await deleteRecoveryCodes(tx, userId);
    await deleteUserSessions(tx, userId);
    // The links of the other sign-ups (perhaps someone else's) die with this one.
    await retireUserTokens(tx, userId, "verify-email");
    // The referral this link decided, against its referrer's signals (issue 16, self-referral).
    await reviewReferral(tx, userId);
    return "verified";
  });
  if (outcome === "needs-password") {
    throw validation({ password: ["Choose a password to finish confirming your address."] });
  }
  if (outcome !== "verified") throw invalidVerificationLink();
}

const invalidVerificationLink = () =>
  new AppError("BadRequestException", "This verification link is invalid or has expired.");

/**
 * Sends a new verification link when the address has an unverified account; the same answer always.
 * The link is bound to no sign-up (anyone may ask for it), so following it asks for a password.
 */
export async function resendVerification(deps: AuthDeps, email: string): Promise<void> {
  const user = await pendingUserByEmail(deps.db, email);
  if (!user) return;
  await deps.db.transaction((tx) => queueVerification(tx, deps.config, user, unbound));
  deps.pokeJobs();
}
