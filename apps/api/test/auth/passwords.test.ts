import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountsApp,
  BOT,
  errorOf,
  expireToken,
  getProfile,
  HUMAN,
  insertAccount,
  mailsTo,
  OTHER_PASSWORD,
  resetToken,
  sessionCount,
  sessionUserId,
  signIn,
  signInCookie,
  tokenFromText,
  totpCode,
  uniqueEmail,
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

const changePassword = (cookie: string | undefined, payload: Record<string, unknown>) =>
  ctx.app.inject({
    method: "PATCH",
    url: "/auth/password",
    headers: cookie ? { cookie } : {},
    payload,
  });
const sendReset = (email: string) =>
  ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email } });
const storePassword = (payload: Record<string, unknown>) =>
  ctx.app.inject({ method: "POST", url: "/auth/password/store", payload });

describe("PATCH /auth/password", () => {
  it("changes the password, ends every session, clears the cookie and e-mails a notice", async () => {
    const account = await insertAccount(ctx.database, { locale: "fr" });
    const first = await signInCookie(ctx, account.email);
    const second = await signInCookie(ctx, account.email);
    expect(await sessionCount(ctx.database, account.id)).toBe(2);

    const res = await changePassword(first, {
      oldPassword: account.password,
      newPassword: OTHER_PASSWORD,
      turnstileToken: HUMAN,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ message: string }>().message).toEqual(expect.any(String));
    const cleared = res.cookies.find((c) => c.name === "sid");
    expect(cleared).toBeDefined();
    expect(cleared?.value).toBe("");
    expect(cleared?.maxAge).toBe(0);

    for (const cookie of [first, second]) expect(await sessionUserId(ctx, cookie)).toBeNull();
    expect(await sessionCount(ctx.database, account.id)).toBe(0);

    expect((await signIn(ctx, account.email, account.password)).statusCode).toBe(400);
    expect((await signIn(ctx, account.email, OTHER_PASSWORD)).statusCode).toBe(200);

    const mails = await mailsTo(ctx, account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      template: "password-changed",
      locale: "fr",
      subject: "Votre mot de passe Salelink a été modifié",
    });
  });

  it("refuses a wrong old password with 400 errors.oldPassword and changes nothing", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const res = await changePassword(cookie, {
      oldPassword: "not-the-password",
      newPassword: OTHER_PASSWORD,
      turnstileToken: HUMAN,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).errors ?? {})).toEqual(["oldPassword"]);
    expect((await getProfile(ctx, cookie)).statusCode).toBe(200);
    expect((await signIn(ctx, account.email, account.password)).statusCode).toBe(200);
    expect(await mailsTo(ctx, account.email)).toHaveLength(0);
  });

  it("validates the new password's length and the bot check", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const cases: [Record<string, unknown>, string][] = [
      [{ newPassword: "1234567" }, "newPassword"],
      [{ newPassword: "z".repeat(129) }, "newPassword"],
      [{ turnstileToken: BOT }, "turnstileToken"],
      [{ turnstileToken: undefined }, "turnstileToken"],
    ];
    for (const [change, field] of cases) {
      const res = await changePassword(cookie, {
        oldPassword: account.password,
        newPassword: OTHER_PASSWORD,
        turnstileToken: HUMAN,
        ...change,
      });
      expect(res.statusCode, field).toBe(400);
      expect(errorOf(res).errors, field).toHaveProperty(field);
    }
    expect((await getProfile(ctx, cookie)).statusCode).toBe(200);
    expect((await signIn(ctx, account.email, account.password)).statusCode).toBe(200);
  });

  it("needs a session", async () => {
    const res = await changePassword(undefined, {
      oldPassword: "whatever-old",
      newPassword: OTHER_PASSWORD,
      turnstileToken: HUMAN,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("password reset", () => {
  it("answers the same for known and unknown addresses and e-mails only the known one", async () => {
    const account = await insertAccount(ctx.database, { locale: "es" });
    const unknown = uniqueEmail("nobody");
    const known = await sendReset(account.email);
    const notKnown = await sendReset(unknown);
    expect(known.statusCode).toBe(200);
    expect(notKnown.statusCode).toBe(known.statusCode);
    expect(notKnown.body).toBe(known.body);

    expect(await mailsTo(ctx, unknown)).toHaveLength(0);
    const mails = await mailsTo(ctx, account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: "reset-password", locale: "es" });
    const token = tokenFromText(mails[0]?.text ?? "", "/reset-password", "token");
    expect(mails[0]?.text).toContain(`${ctx.config.WEB_ORIGIN}/reset-password?token=${token}`);
  });

  it("stores the new password, ends every session, and the token works once", async () => {
    const account = await insertAccount(ctx.database);
    const cookies = [await signInCookie(ctx, account.email), await signInCookie(ctx, account.email)];
    await sendReset(account.email);
    const token = await resetToken(ctx, account.email);

    const res = await storePassword({ token, password: OTHER_PASSWORD, turnstileToken: HUMAN });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ success: boolean; message: string }>();
    expect(body.success).toBe(true);
    expect(body.message).toEqual(expect.any(String));

    expect((await signIn(ctx, account.email, account.password)).statusCode).toBe(400);
    expect((await signIn(ctx, account.email, OTHER_PASSWORD)).statusCode).toBe(200);
    for (const cookie of cookies) expect(await sessionUserId(ctx, cookie)).toBeNull();
    expect((await mailsTo(ctx, account.email)).filter((m) => m.template === "password-changed")).toHaveLength(
      1,
    );

    const again = await storePassword({ token, password: "a-third-password", turnstileToken: HUMAN });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).message).toEqual(expect.any(String));
    expect((await signIn(ctx, account.email, OTHER_PASSWORD)).statusCode).toBe(200);
  });

  it("a token sent by several requests at once is used by only one of them", async () => {
    const account = await insertAccount(ctx.database);
    await sendReset(account.email);
    const token = await resetToken(ctx, account.email);
    const passwords = ["concurrent-one", "concurrent-two", "concurrent-three"];
    const results = await Promise.all(
      passwords.map((password) => storePassword({ token, password, turnstileToken: HUMAN })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    const winner = passwords[results.findIndex((r) => r.statusCode === 200)] ?? "";
    expect((await signIn(ctx, account.email, winner)).statusCode).toBe(200);
  });

  it("a reset does not switch two-factor authentication off", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const setup = await ctx.app.inject({ method: "POST", url: "/auth/2fa/setup", headers: { cookie } });
    const { secret } = setup.json<{ secret: string }>();
    await ctx.app.inject({
      method: "POST",
      url: "/auth/2fa/enable",
      headers: { cookie },
      payload: { code: totpCode(secret) },
    });
    await sendReset(account.email);
    const token = await resetToken(ctx, account.email);
    expect((await storePassword({ token, password: OTHER_PASSWORD, turnstileToken: HUMAN })).statusCode).toBe(
      200,
    );
    const res = await signIn(ctx, account.email, OTHER_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).error).toBe("TwoFactorAuthenticationRequiredException");
  });

  it("refuses an expired token", async () => {
    const account = await insertAccount(ctx.database);
    await sendReset(account.email);
    const token = await resetToken(ctx, account.email);
    await expireToken(ctx.database, token);
    const res = await storePassword({ token, password: OTHER_PASSWORD, turnstileToken: HUMAN });
    expect(res.statusCode).toBe(400);
    expect((await signIn(ctx, account.email, account.password)).statusCode).toBe(200);
  });

  it("a new reset link invalidates the previous one", async () => {
    const account = await insertAccount(ctx.database);
    await sendReset(account.email);
    const first = await resetToken(ctx, account.email);
    await sendReset(account.email);
    const second = await resetToken(ctx, account.email);
    expect(second).not.toBe(first);
    expect(
      (await storePassword({ token: first, password: OTHER_PASSWORD, turnstileToken: HUMAN })).statusCode,
    ).toBe(400);
    expect(
      (await storePassword({ token: second, password: OTHER_PASSWORD, turnstileToken: HUMAN })).statusCode,
    ).toBe(200);
  });

  it("refuses a failed bot check, a short password, a malformed or foreign token, and keeps the token", async () => {
    const account = await insertAccount(ctx.database, { verified: false });
    await sendReset(account.email);
    const token = await resetToken(ctx, account.email);

    const bot = await storePassword({ token, password: OTHER_PASSWORD, turnstileToken: BOT });
    expect(bot.statusCode).toBe(400);
    expect(errorOf(bot).errors).toHaveProperty("turnstileToken");

    const short = await storePassword({ token, password: "1234567", turnstileToken: HUMAN });
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).errors).toHaveProperty("password");

    const malformed = await storePassword({ token: "abc", password: OTHER_PASSWORD, turnstileToken: HUMAN });
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).errors).toHaveProperty("token");

    // The account's verification token is not a reset token.
    const verification = await verificationTokenFor(account.email);
    const foreign = await storePassword({
      token: verification,
      password: OTHER_PASSWORD,
      turnstileToken: HUMAN,
    });
    expect(foreign.statusCode).toBe(400);

    expect((await signIn(ctx, account.email, OTHER_PASSWORD)).statusCode).toBe(400);
    // None of the refusals above used the token up.
    expect((await storePassword({ token, password: OTHER_PASSWORD, turnstileToken: HUMAN })).statusCode).toBe(
      200,
    );
  });
});

async function verificationTokenFor(email: string): Promise<string> {
  await ctx.app.inject({ method: "POST", url: "/auth/email/resend", payload: { email } });
  return verificationToken(ctx, email);
}
