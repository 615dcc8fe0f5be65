import {
  emailedTokenSchema,
  type Locale,
  type PasswordChangeBody,
  type PasswordStoreBody,
  type SigninBody,
} from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { hashPassword, timingDummyHash, verifyPassword } from "../../lib/passwords.ts";
import { hashRecoveryCode, isRecoveryCodeShape } from "../../lib/recovery-codes.ts";
import { SecretBox } from "../../lib/secret-box.ts";
import { randomToken } from "../../lib/tokens.ts";
import { verifyTotp } from "../../lib/totp.ts";
import type { BotCheck } from "../../providers/bot-check/index.ts";
import { eraseBuyer } from "../customers/queries.ts";
import { queueMail } from "../mail/jobs.ts";
import { eraseInvitationAddresses } from "../partners/queries.ts";
import { deletePurchaseLinks } from "../purchases/queries.ts";
import { balancesOf } from "../wallet/ledger.ts";
import {
  advanceTotpStep,
  anonymiseUser,
  deleteMailTo,
  deletePersonalRows,
  findUserByEmail,
  findUserById,
  findUserEmail,
  type UserRow,
  updateLocale,
  updatePasswordHash,
  useRecoveryCode,
} from "./queries.ts";
import { createSession, deleteUserSessions } from "./sessions.ts";
import { consumeUserToken, issueUserToken, tokenTtlMs } from "./tokens.ts";

export interface AuthDeps {
  db: Db;
  config: Config;
  botCheck: BotCheck;
  /** Wakes the job worker once a transaction that queued mail has committed. */
  pokeJobs(): void;
}

export const invalidCredentials = () =>
  new AppError("InvalidCredentialsException", "Invalid user credentials. Please try again.");

export const totpBox = (config: Config) => new SecretBox(config.appSecret, "totp");

const hours = (ms: number) => Math.round(ms / 3_600_000);

export async function requireHuman(deps: AuthDeps, token: string, ip: string): Promise<void> {
  const result = await deps.botCheck.verify(token, ip);
  if (!result.success) throw validation({ turnstileToken: ["The bot check failed. Please try again."] });
}

export function webLink(config: Config, path: string, params: Record<string, string>): string {
  const url = new URL(path, config.WEB_ORIGIN);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Moves the account's last accepted TOTP step forward, only if it is still behind: of several
 * requests carrying the same code at once, exactly one wins.
 */
export async function recordTotpStep(tx: DbOrTx, userId: string, step: number): Promise<boolean> {
  return advanceTotpStep(tx, userId, step);
}

/** Checks a TOTP code (never the same time step twice) or uses up a recovery code. */
async function acceptSecondFactor(tx: DbOrTx, config: Config, user: UserRow, code: string): Promise<boolean> {
  if (!user.twoFactorSecret) return false;
  const compact = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(compact)) {
    const secret = totpBox(config).open(user.twoFactorSecret);
    const step = verifyTotp(secret, compact, { lastUsedStep: user.twoFactorLastStep ?? undefined });
    if (step === null) return false;
    return recordTotpStep(tx, user.id, step);
  }
  if (!isRecoveryCodeShape(code)) return false;
  return useRecoveryCode(tx, user.id, hashRecoveryCode(code));
}

/** Checks the credentials (and the second factor when on) and opens a new session. */
export async function signIn(deps: AuthDeps, body: SigninBody): Promise<{ token: string }> {
  const user = await findUserByEmail(deps.db, body.email);
  const ok = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), body.password);
  if (!user || !ok || user.deletedAt) throw invalidCredentials();
  if (!user.emailVerifiedAt) {
    throw new AppError("UnverifiedAccountException", "Please verify your e-mail address before signing in.");
  }
  return deps.db.transaction(async (tx) => {
    if (
      user.twoFactorEnabledAt &&
      !(body.code && (await acceptSecondFactor(tx, deps.config, user, body.code)))
    ) {
      throw new AppError(
        "TwoFactorAuthenticationRequiredException",
        body.code
          ? "The code is not valid. Please try again."
          : "Enter the code from your authenticator app.",
      );
    }
    return { token: await createSession(tx, user.id, deps.config.SESSION_TTL_DAYS) };
  });
}

/** Sends a reset link when the address has an account; the same answer always. */
export async function sendPasswordReset(deps: AuthDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user || user.deletedAt) return;
  await deps.db.transaction(async (tx) => {
    const token = await issueUserToken(tx, user.id, "reset-password");
    await queueMail(tx, {
      to: user.email,
      template: "reset-password",
      locale: user.locale,
      params: {
        url: webLink(deps.config, "/reset-password", { token }),
        expiresInHours: hours(tokenTtlMs["reset-password"]),
      },
    });
  });
  deps.pokeJobs();
}

async function setPassword(tx: DbOrTx, user: Pick<UserRow, "id" | "email" | "locale">, password: string) {
  await updatePasswordHash(tx, user.id, await hashPassword(password));
  // DESIGN section 3: a password change ends every session.
  await deleteUserSessions(tx, user.id);
  await queueMail(tx, { to: user.email, template: "password-changed", locale: user.locale, params: {} });
}

export async function storePassword(deps: AuthDeps, body: PasswordStoreBody, ip: string): Promise<void> {
  await requireHuman(deps, body.turnstileToken, ip);
  const done = await deps.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, body.token, "reset-password");
    if (!userId) return false;
    const user = await findUserById(tx, userId);
    if (!user) return false;
    await setPassword(tx, user, body.password);
    return true;
  });
  if (!done) throw new AppError("BadRequestException", "This reset link is invalid or has expired.");
  deps.pokeJobs();
}

export async function changePassword(deps: AuthDeps, userId: string, body: PasswordChangeBody, ip: string) {
  await requireHuman(deps, body.turnstileToken, ip);
  const user = await findUserById(deps.db, userId);
  if (!user || !(await verifyPassword(user.passwordHash, body.oldPassword))) {
    throw validation({ oldPassword: ["The current password is not correct."] });
  }
  await deps.db.transaction((tx) => setPassword(tx, user, body.newPassword));
  deps.pokeJobs();
}

/**
 * Deleting an account that still holds money (a balance, a commission, a payout on its way) would
 * strand it: the person withdraws first. In transit counts, so an open payout blocks too. One that
 * owes money (decision 042) is not deleted either: the debt stays with its owner.
 */
async function refuseWhileMoneyHeld(db: DbOrTx, userId: string): Promise<void> {
  const balances = await balancesOf(db, userId);
  if (balances.some((b) => b.account === "debt" && b.balanceMinor < 0)) {
    throw new AppError(
      "ConflictException",
      "Your account owes money from a refund or a dispute of a sale already paid out: it can be deleted once that is repaid.",
    );
  }
  if (balances.some((b) => b.balanceMinor !== 0)) {
    throw new AppError(
      "ConflictException",
      "Your wallet still holds money: withdraw it, or wait for your payout, before deleting your account.",
    );
  }
}

export async function requestDeletion(deps: AuthDeps, userId: string): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) return;
  await refuseWhileMoneyHeld(deps.db, user.id);
  await deps.db.transaction(async (tx) => {
    const token = await issueUserToken(tx, user.id, "delete-account");
    await queueMail(tx, {
      to: user.email,
      template: "delete-account",
      locale: user.locale,
      params: {
        url: webLink(deps.config, "/", { deletionToken: token }),
        expiresInHours: hours(tokenTtlMs["delete-account"]),
      },
    });
  });
  deps.pokeJobs();
}

/**
 * Erases the account's personal data (spec: deletion; DESIGN: sales records kept as the law needs):
 * the row stays, anonymised, so orders and ledger entries still point somewhere.
 */
export async function deleteAccount(deps: AuthDeps, token: string): Promise<void> {
  // A mangled link is an invalid link to whoever follows it, as for e-mail verification.
  if (!emailedTokenSchema.safeParse(token).success) throw invalidDeletionLink();
  const deleted = await deps.db.transaction(async (tx) => {
    const userId = await consumeUserToken(tx, token, "delete-account");
    if (!userId) return false;
    // Checked again here: money may have arrived since the link was sent (the link stays usable).
    await refuseWhileMoneyHeld(tx, userId);
    const email = await findUserEmail(tx, userId);
    if (email !== null) {
      await deleteMailTo(tx, email);
      await eraseInvitationAddresses(tx, { userId, email, erased: erasedAddress(userId) });
      await eraseBuyer(tx, { email, erased: erasedAddress(userId) });
      await deletePurchaseLinks(tx, email);
    }
    await deletePersonalRows(tx, userId);
    await deleteUserSessions(tx, userId);
    await anonymiseUser(tx, userId, {
      email: erasedAddress(userId),
      passwordHash: `!deleted:${randomToken()}`,
    });
    return true;
  });
  if (!deleted) throw invalidDeletionLink();
}

const erasedAddress = (userId: string) => `deleted-${userId}@deleted.invalid`;

const invalidDeletionLink = () =>
  new AppError("BadRequestException", "This deletion link is invalid or has expired.");

export async function setLocale(db: Db, userId: string, locale: Locale): Promise<void> {
  await updateLocale(db, userId, locale);
}
