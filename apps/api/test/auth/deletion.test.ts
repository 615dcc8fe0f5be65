import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bankAccounts,
  jobs,
  onboardingProfiles,
  recoveryCodes,
  userTokens,
} from "../../src/db/schema/index.ts";
import { post } from "../../src/modules/wallet/ledger.ts";
import { orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";
import {
  accountsApp,
  countUsersWithEmail,
  deletionToken,
  errorOf,
  expireToken,
  getProfile,
  insertAccount,
  mailsTo,
  type ProfileBody,
  sessionCount,
  sessionUserId,
  signIn,
  signInCookie,
  signUp,
  signUpVerified,
  tokenFromText,
  totpCode,
  userRow,
  verificationToken,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

const requestDeletion = (cookie?: string) =>
  ctx.app.inject({ method: "POST", url: "/profile/delete", headers: cookie ? { cookie } : {} });
const confirmDeletion = (token: string) =>
  ctx.app.inject({ method: "DELETE", url: `/profile/delete/${token}` });

const onboarding = {
  kind: "individual",
  firstName: "Ana",
  lastName: "García",
  dateOfBirth: "1985-02-03",
  address: { line1: "Calle Mayor 1", city: "Madrid", postalCode: "28013", country: "ES" },
};

describe("account deletion", () => {
  it("needs a session to ask", async () => {
    expect((await requestDeletion()).statusCode).toBe(401);
  });

  it("asks by e-mail with a /?deletionToken= link in the account's language", async () => {
    const account = await insertAccount(ctx.database, { locale: "es" });
    const cookie = await signInCookie(ctx, account.email);
    const res = await requestDeletion(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ message: string }>().message).toEqual(expect.any(String));
    const mails = await mailsTo(ctx, account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: "delete-account", locale: "es" });
    const token = tokenFromText(mails[0]?.text ?? "", "/", "deletionToken");
    expect(mails[0]?.text).toContain(`${ctx.config.WEB_ORIGIN}/?deletionToken=${token}`);
    // Asking deletes nothing yet.
    expect((await getProfile(ctx, cookie)).statusCode).toBe(200);
  });

  it("deletes with the token: data erased, sessions gone, old credentials refused, the address free again", async () => {
    const account = await signUpVerified(ctx, { locale: "fr" });
    const cookie = await signInCookie(ctx, account.email);
    const other = await signInCookie(ctx, account.email);
    const onboarded = await ctx.app.inject({
      method: "POST",
      url: "/profile/onboarding",
      headers: { cookie },
      payload: onboarding,
    });
    expect(onboarded.statusCode).toBe(200);
    // 2FA on too, so its secret and recovery codes must go.
    const setup = await ctx.app.inject({ method: "POST", url: "/auth/2fa/setup", headers: { cookie } });
    const { secret } = setup.json<{ secret: string }>();
    const enabled = await ctx.app.inject({
      method: "POST",
      url: "/auth/2fa/enable",
      headers: { cookie },
      payload: { code: totpCode(secret) },
    });
    expect(enabled.statusCode).toBe(200);

    await requestDeletion(cookie);
    const token = await deletionToken(ctx, account.email);
    const res = await confirmDeletion(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Your account has been deleted." });
    const cleared = res.cookies.find((c) => c.name === "sid");
    expect(cleared?.value).toBe("");

    const row = await userRow(ctx.database, account.id);
    expect(row.email).not.toBe(account.email);
    expect(row.email).not.toContain(account.email.split("@")[0] ?? "");
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.passwordHash).not.toMatch(/^\$argon2/);
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorEnabledAt: null });

    expect(await sessionCount(ctx.database, account.id)).toBe(0);
    for (const c of [cookie, other]) expect(await sessionUserId(ctx, c)).toBeNull();
    const db = ctx.database.db;
    expect(
      await db.select().from(onboardingProfiles).where(eq(onboardingProfiles.userId, account.id)),
    ).toEqual([]);
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, account.id))).toEqual([]);
    expect(await db.select().from(userTokens).where(eq(userTokens.userId, account.id))).toEqual([]);

    const oldCredentials = await signIn(ctx, account.email, account.password, totpCode(secret));
    expect(oldCredentials.statusCode).toBe(400);
    expect(errorOf(oldCredentials).error).toBe("InvalidCredentialsException");

    // The token is single-use.
    const again = await confirmDeletion(token);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).message).toEqual(expect.any(String));

    // The address can make a new, separate account.
    expect((await signUp(ctx, { email: account.email })).statusCode).toBe(201);
    expect(await countUsersWithEmail(ctx.database, account.email)).toBe(1);
    const fresh = await signUpAgainProfile(account.email);
    expect(fresh.id).not.toBe(account.id);
    expect(fresh.onboardingCompleted).toBe(false);
    expect(fresh.twoFactorEnabled).toBe(false);
  });

  it("refuses a malformed, unknown or expired token and deletes nothing", async () => {
    // A mangled link says what an unknown one says, not "some fields are invalid".
    for (const malformed of ["short", "B".repeat(43), "a%20b", "x".repeat(90)]) {
      const res = await confirmDeletion(malformed);
      expect(res.statusCode, malformed).toBe(400);
      expect(res.json(), malformed).toMatchObject({
        error: "BadRequestException",
        message: "This deletion link is invalid or has expired.",
      });
    }

    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    await requestDeletion(cookie);
    const token = await deletionToken(ctx, account.email);
    await expireToken(ctx.database, token);
    expect((await confirmDeletion(token)).statusCode).toBe(400);
    expect((await userRow(ctx.database, account.id)).deletedAt).toBeNull();
    expect((await getProfile(ctx, cookie)).statusCode).toBe(200);
  });

  it("a new request invalidates the earlier link", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    await requestDeletion(cookie);
    const first = await deletionToken(ctx, account.email);
    await requestDeletion(cookie);
    const second = await deletionToken(ctx, account.email);
    expect((await confirmDeletion(first)).statusCode).toBe(400);
    expect((await confirmDeletion(second)).statusCode).toBe(200);
  });

  it("a deletion token is not a reset or verification token, and theirs do not delete", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    await ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email: account.email } });
    const reset = tokenFromText(
      (await mailsTo(ctx, account.email)).find((m) => m.template === "reset-password")?.text ?? "",
      "/reset-password",
      "token",
    );
    expect((await confirmDeletion(reset)).statusCode).toBe(400);
    await requestDeletion(cookie);
    const token = await deletionToken(ctx, account.email);
    expect((await ctx.app.inject({ method: "POST", url: `/auth/verify/email/${token}` })).statusCode).toBe(
      400,
    );
    expect((await userRow(ctx.database, account.id)).deletedAt).toBeNull();
  });

  // Regression (found by this suite, since fixed): deleteAccount (src/modules/auth/service.ts, deleteAccount) erases the users row but not the
  // mail jobs: registerMailJobs (src/modules/mail/jobs.ts) strips only `params` from a sent job, so
  // every done `mail.send` row keeps `payload.to`, the deleted account's address, for good.
  // The issue asks for "personal data erased" on deletion.
  it("leaves the deleted address nowhere in the job table", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    await requestDeletion(cookie);
    expect((await confirmDeletion(await deletionToken(ctx, account.email))).statusCode).toBe(200);
    const rows = await ctx.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(sql`${jobs.payload}::text ilike ${`%${account.email}%`}`);
    expect(rows).toEqual([]);
  });

  it("erases the bank accounts, and is refused while the wallet holds money", async () => {
    const account = await insertAccount(ctx.database, { locale: "fr" });
    const cookie = await signInCookie(ctx, account.email);
    const added = await ctx.app.inject({
      method: "POST",
      url: "/profile/bank-accounts",
      headers: { cookie },
      payload: { holderName: "Ana García", iban: "DE89 3704 0044 0532 0130 00" },
    });
    expect(added.statusCode).toBe(201);

    // A sale on hold: money the account would lose with it.
    const orderId = randomUUID();
    await ctx.database.db.transaction((tx) =>
      post(
        tx,
        orderPaid({
          orderId,
          creatorId: account.id,
          referrerId: null,
          partnerId: null,
          currency: "EUR",
          split: splitSale(2000, 1000, null),
          availableAt: new Date(Date.now() + 86_400_000),
        }),
      ),
    );
    const asked = await ctx.app.inject({
      method: "POST",
      url: "/profile/delete",
      headers: { cookie, "x-locale": "fr" },
    });
    expect(asked.statusCode).toBe(409);
    expect(errorOf(asked).message).toContain("portefeuille");
    expect(await mailsTo(ctx, account.email)).toHaveLength(0);
    const bankRows = () =>
      ctx.database.db.select().from(bankAccounts).where(eq(bankAccounts.ownerId, account.id));
    expect(await bankRows()).toHaveLength(1);

    // An account that owes money (a refund after its payout, decision 042) is kept with its debt.
    const debtor = await insertAccount(ctx.database, { locale: "fr" });
    const debtorCookie = await signInCookie(ctx, debtor.email);
    await ctx.database.db.transaction((tx) =>
      post(tx, {
        kind: "refund",
        reference: randomUUID(),
        entries: [
          { account: "debt", ownerId: debtor.id, currency: "EUR", amountMinor: -700 },
          { account: "provider", ownerId: null, currency: "EUR", amountMinor: 700 },
        ],
      }),
    );
    const owing = await ctx.app.inject({
      method: "POST",
      url: "/profile/delete",
      headers: { cookie: debtorCookie, "x-locale": "fr" },
    });
    expect(owing.statusCode).toBe(409);
    expect(errorOf(owing).message).toContain("doit de l'argent");

    // Without money, the same account is deleted and its sealed IBAN goes with it.
    const empty = await insertAccount(ctx.database);
    const emptyCookie = await signInCookie(ctx, empty.email);
    await ctx.app.inject({
      method: "POST",
      url: "/profile/bank-accounts",
      headers: { cookie: emptyCookie },
      payload: { holderName: "Ana García", iban: "DE89 3704 0044 0532 0130 00" },
    });
    expect((await requestDeletion(emptyCookie)).statusCode).toBe(200);
    expect((await confirmDeletion(await deletionToken(ctx, empty.email))).statusCode).toBe(200);
    expect(
      await ctx.database.db.select().from(bankAccounts).where(eq(bankAccounts.ownerId, empty.id)),
    ).toEqual([]);
  });
});

async function signUpAgainProfile(email: string): Promise<ProfileBody> {
  const verified = await ctx.app.inject({
    method: "POST",
    url: `/auth/verify/email/${await verificationToken(ctx, email)}`,
  });
  expect(verified.statusCode).toBe(200);
  const cookie = await signInCookie(ctx, email);
  return (await getProfile(ctx, cookie)).json<ProfileBody>();
}
