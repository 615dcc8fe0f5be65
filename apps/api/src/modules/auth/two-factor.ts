import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { generateRecoveryCodes, hashRecoveryCode } from "../../lib/recovery-codes.ts";
import { generateTotpSecret, otpauthQrSvg, otpauthUri, verifyTotp } from "../../lib/totp.ts";
import {
  clearTwoFactor,
  deleteRecoveryCodes,
  findUserById,
  hasUnusedRecoveryCode,
  insertRecoveryCodes,
  markTwoFactorEnabled,
  setPendingTotpSecret,
} from "./queries.ts";
import { recordTotpStep, totpBox } from "./service.ts";

async function loadUser(db: Db, userId: string) {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("UnauthorizedException", "You need to sign in.");
  return user;
}

/** A new secret to scan; it stays pending (and 2FA off) until a code from it is confirmed. */
export async function setupTwoFactor(db: Db, config: Config, userId: string) {
  const user = await loadUser(db, userId);
  if (user.twoFactorEnabledAt)
    throw new AppError("ConflictException", "Two-factor authentication is already on.");
  const secret = generateTotpSecret();
  await setPendingTotpSecret(db, userId, totpBox(config).seal(secret));
  const uri = otpauthUri({ secret, account: user.email });
  return { secret, otpauthUri: uri, qrSvg: await otpauthQrSvg(uri) };
}

/** Turns 2FA on with a code from the pending secret, and answers the recovery codes, once. */
export async function enableTwoFactor(db: Db, config: Config, userId: string, code: string) {
  const user = await loadUser(db, userId);
  if (user.twoFactorEnabledAt)
    throw new AppError("ConflictException", "Two-factor authentication is already on.");
  if (!user.twoFactorSecret) throw new AppError("BadRequestException", "Start the set-up first.");
  const step = verifyTotp(totpBox(config).open(user.twoFactorSecret), code);
  if (step === null) throw validation({ code: ["The code is not valid. Please try again."] });
  const codes = generateRecoveryCodes();
  await db.transaction(async (tx) => {
    await markTwoFactorEnabled(tx, userId, step);
    await deleteRecoveryCodes(tx, userId);
    await insertRecoveryCodes(tx, userId, codes.map(hashRecoveryCode));
  });
  return { recoveryCodes: codes };
}

/** Turns 2FA off; needs the password and a current code (or a recovery code). */
export async function disableTwoFactor(
  db: Db,
  config: Config,
  userId: string,
  password: string,
  code: string,
) {
  const user = await loadUser(db, userId);
  if (!user.twoFactorEnabledAt || !user.twoFactorSecret) {
    throw new AppError("ConflictException", "Two-factor authentication is already off.");
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw validation({ password: ["The password is not correct."] });
  }
  const secret = totpBox(config).open(user.twoFactorSecret);
  const step = /^\d{6}$/.test(code.trim())
    ? verifyTotp(secret, code.trim(), { lastUsedStep: user.twoFactorLastStep ?? undefined })
    : null;
  const totpOk = step !== null && (await recordTotpStep(db, userId, step));
  const recovery = totpOk || (await hasUnusedRecoveryCode(db, userId, hashRecoveryCode(code)));
  if (!recovery) throw validation({ code: ["The code is not valid. Please try again."] });
  await db.transaction(async (tx) => {
    await clearTwoFactor(tx, userId);
    await deleteRecoveryCodes(tx, userId);
  });
}
