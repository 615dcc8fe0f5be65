import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountsApp,
  BOT,
  countUsersWithEmail,
  errorOf,
  expireToken,
  insertAccount,
  insertCampaign,
  lastMail,
  mailsTo,
  outboxCount,
  PASSWORD,
  resetToken,
  signIn,
  signUp,
  tokenFromText,
  uniqueEmail,
  userId,
  userRow,
  verificationToken,
  verifyEmail,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("POST /auth/signup", () => {
  it("answers 201 and e-mails a /?emailToken= link in the account's language", async () => {
    for (const [locale, subject] of [
      ["en", "Confirm your e-mail address"],
      ["fr", "Confirmez votre adresse e-mail"],
      ["es", "Confirma tu dirección de correo electrónico"],
    ] as const) {
      const email = uniqueEmail(`signup-${locale}`);
      const res = await signUp(ctx, { email, locale });
      expect(res.statusCode).toBe(201);
      expect(typeof res.json<{ message: string }>().message).toBe("string");

      const mails = await mailsTo(ctx, email);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ template: "verify-email", locale, subject });
      const token = tokenFromText(mails[0]?.text ?? "", "/", "emailToken");
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(mails[0]?.text).toContain(`${ctx.config.WEB_ORIGIN}/?emailToken=${token}`);

      const user = await userRow(ctx.database, await userId(ctx.database, email));
      expect(user).toMatchObject({ locale, role: "user", emailVerifiedAt: null, deletedAt: null });
      // argon2id, never the password itself.
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user.passwordHash).not.toContain(PASSWORD);
    }
  });

  it("stores the address lower-cased and trimmed", async () => {
    const email = uniqueEmail("case");
    const res = await signUp(ctx, { email: `  ${email.toUpperCase()} ` });
    expect(res.statusCode).toBe(201);
    expect(await countUsersWithEmail(ctx.database, email)).toBe(1);
  });

  const fieldCases: [string, Record<string, unknown>, string][] = [
    ["a malformed e-mail", { email: "not-an-email" }, "email"],
    ["a 7-character password", { password: "1234567" }, "password"],
    ["a 129-character password", { password: "x".repeat(129) }, "password"],
    ["acceptTerms false", { acceptTerms: false }, "acceptTerms"],
    ["a locale that is not en, fr or es", { locale: "de" }, "locale"],
    ["an empty bot-check token", { turnstileToken: "" }, "turnstileToken"],
  ];
  it.each(fieldCases)("refuses %s with 400 and an error on that field only", async (_, change, field) => {
    const email = uniqueEmail("invalid");
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signup",
      payload: {
        email,
        password: PASSWORD,
        acceptTerms: true,
        locale: "en",
        turnstileToken: "ok",
        ...change,
      },
    });
    expect(res.statusCode).toBe(400);
    const body = errorOf(res);
    expect(body).toMatchObject({ statusCode: 400, error: "ValidationException" });
    expect(Object.keys(body.errors ?? {})).toEqual([field]);
    expect(body.errors?.[field]?.[0]).toEqual(expect.any(String));
    expect(await countUsersWithEmail(ctx.database, email)).toBe(0);
  });

  it("accepts passwords of exactly 8 and 128 characters", async () => {
    for (const password of ["12345678", "y".repeat(128)]) {
      const email = uniqueEmail("bounds");
      expect((await signUp(ctx, { email, password })).statusCode).toBe(201);
      expect(await countUsersWithEmail(ctx.database, email)).toBe(1);
    }
  });

  it("answers 400 with errors.turnstileToken when the bot check fails, and creates nothing", async () => {
    const email = uniqueEmail("bot");
    const res = await signUp(ctx, { email, turnstileToken: BOT });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toHaveProperty("turnstileToken");
    expect(await countUsersWithEmail(ctx.database, email)).toBe(0);
    expect(await outboxCount(ctx.database, email)).toBe(0);
  });

  it("gives an existing address the same answer, no second account, no e-mail, and keeps its password", async () => {
    const existing = await insertAccount(ctx.database);
    const fresh = await signUp(ctx, { email: uniqueEmail("fresh") });
    const again = await signUp(ctx, {
      email: existing.email.toUpperCase(),
      password: "a-brand-new-password",
    });
    expect(again.statusCode).toBe(201);
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(again.json()).toEqual(fresh.json());
    expect(await countUsersWithEmail(ctx.database, existing.email)).toBe(1);
    expect(await mailsTo(ctx, existing.email)).toHaveLength(0);
    expect((await signIn(ctx, existing.email, PASSWORD)).statusCode).toBe(200);
    expect((await signIn(ctx, existing.email, "a-brand-new-password")).statusCode).toBe(400);
  });

  it("gives an address waiting for confirmation the same answer and a new link of its own, one account", async () => {
    // Issue 16: each sign-up's link carries its own password (auth/hijack.test.ts replays the attack).
    const email = uniqueEmail("twice");
    const first = await signUp(ctx, { email });
    expect(first.statusCode).toBe(201);
    expect(await mailsTo(ctx, email)).toHaveLength(1);
    const second = await signUp(ctx, { email, password: "a-brand-new-password" });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await mailsTo(ctx, email)).toHaveLength(2);
    expect(await countUsersWithEmail(ctx.database, email)).toBe(1);
  });
});

describe("POST /auth/signup?ref=", () => {
  it("links the new account to an active campaign", async () => {
    const owner = await insertAccount(ctx.database);
    const campaign = await insertCampaign(ctx.database, owner.id);
    const email = uniqueEmail("referred");
    expect((await signUp(ctx, { email }, campaign.token)).statusCode).toBe(201);
    const user = await userRow(ctx.database, await userId(ctx.database, email));
    expect(user.referredByCampaignId).toBe(campaign.id);
  });

  it("ignores an unknown or archived campaign token", async () => {
    const owner = await insertAccount(ctx.database);
    const archived = await insertCampaign(ctx.database, owner.id, "archived");
    for (const ref of ["no-such-campaign", archived.token]) {
      const email = uniqueEmail("unreferred");
      const res = await signUp(ctx, { email }, ref);
      expect(res.statusCode).toBe(201);
      const user = await userRow(ctx.database, await userId(ctx.database, email));
      expect(user.referredByCampaignId).toBeNull();
      expect(await mailsTo(ctx, email)).toHaveLength(1);
    }
  });
});

describe("POST /auth/verify/email/{token}", () => {
  it("verifies once; sign-in answers 401 UnverifiedAccountException before and 200 after", async () => {
    const email = uniqueEmail("verify");
    await signUp(ctx, { email });

    const before = await signIn(ctx, email);
    expect(before.statusCode).toBe(401);
    expect(errorOf(before).error).toBe("UnverifiedAccountException");
    expect(errorOf(before).message).toEqual(expect.any(String));

    const token = await verificationToken(ctx, email);
    const res = await verifyEmail(ctx, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Email successfully verified." });
    const user = await userRow(ctx.database, await userId(ctx.database, email));
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);

    const again = await verifyEmail(ctx, token);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).message.length).toBeGreaterThan(0);

    expect((await signIn(ctx, email)).statusCode).toBe(200);
  });

  it("refuses a token of the wrong format, an unknown one, and an expired one", async () => {
    const badFormat = await verifyEmail(ctx, "not-a-token");
    expect(badFormat.statusCode).toBe(400);
    expect(errorOf(badFormat).message.length).toBeGreaterThan(0);

    const unknown = await verifyEmail(ctx, "A".repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).message.length).toBeGreaterThan(0);

    const email = uniqueEmail("expired");
    await signUp(ctx, { email });
    const token = await verificationToken(ctx, email);
    await expireToken(ctx.database, token);
    const expired = await verifyEmail(ctx, token);
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired).message).toEqual(expect.any(String));
    expect((await userRow(ctx.database, await userId(ctx.database, email))).emailVerifiedAt).toBeNull();
  });

  it("does not take a token issued for another purpose", async () => {
    const account = await insertAccount(ctx.database, { verified: false });
    await ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email: account.email } });
    const res = await verifyEmail(ctx, await resetToken(ctx, account.email));
    expect(res.statusCode).toBe(400);
    expect((await userRow(ctx.database, account.id)).emailVerifiedAt).toBeNull();
  });
});

describe("POST /auth/email/resend", () => {
  const resend = (email: string) =>
    ctx.app.inject({ method: "POST", url: "/auth/email/resend", payload: { email } });

  it("answers the same for unknown, verified and unverified addresses; only the unverified one gets a link", async () => {
    const unknown = uniqueEmail("nobody");
    const verified = await insertAccount(ctx.database);
    const unverified = uniqueEmail("waiting");
    await signUp(ctx, { email: unverified, locale: "fr" });
    const firstToken = await verificationToken(ctx, unverified);

    const answers = [await resend(unknown), await resend(verified.email), await resend(unverified)];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(answers[0]?.json());
    }

    expect(await mailsTo(ctx, unknown)).toHaveLength(0);
    expect(await mailsTo(ctx, verified.email)).toHaveLength(0);
    const mails = await mailsTo(ctx, unverified);
    expect(mails).toHaveLength(2);
    expect(mails[0]?.locale).toBe("fr");
    const secondToken = await verificationToken(ctx, unverified);
    expect(secondToken).not.toBe(firstToken);

    // Issue 16: a resent link belongs to no sign-up, so it asks for a password (in the caller's
    // language) and is not spent without one; the sign-up's own link keeps working meanwhile.
    const bare = await ctx.app.inject({
      method: "POST",
      url: `/auth/verify/email/${secondToken}`,
      headers: { "x-locale": "fr" },
    });
    expect(bare.statusCode).toBe(400);
    expect(errorOf(bare).errors?.password).toEqual([
      "Choisissez un mot de passe pour terminer la confirmation de votre adresse.",
    ]);
    const chosen = await ctx.app.inject({
      method: "POST",
      url: `/auth/verify/email/${secondToken}`,
      payload: { password: "a-password-chosen-here" },
    });
    expect(chosen.statusCode).toBe(200);
    expect((await signIn(ctx, unverified, "a-password-chosen-here")).statusCode).toBe(200);
    // Verifying ended every other link of the address.
    expect((await verifyEmail(ctx, firstToken)).statusCode).toBe(400);
  });

  it("sends nothing once the address is verified", async () => {
    const email = uniqueEmail("done");
    await signUp(ctx, { email });
    await verifyEmail(ctx, await verificationToken(ctx, email));
    expect((await resend(email)).statusCode).toBe(200);
    expect((await mailsTo(ctx, email)).filter((m) => m.template === "verify-email")).toHaveLength(1);
    expect((await lastMail(ctx, email, "verify-email")).template).toBe("verify-email");
  });
});
