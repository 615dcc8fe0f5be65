import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountsApp,
  countUsersWithEmail,
  deletionToken,
  errorOf,
  getProfile,
  HUMAN,
  insertAccount,
  lastMail,
  mailsTo,
  OTHER_PASSWORD,
  PASSWORD,
  type ProfileBody,
  signIn,
  signInCookie,
  uniqueEmail,
  userRow,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("GET /profile", () => {
  it("each session sees only its own account, with role, verification and onboarding state", async () => {
    const alice = await insertAccount(ctx.database, { onboarded: true, locale: "fr" });
    const bob = await insertAccount(ctx.database);
    const aliceCookie = await signInCookie(ctx, alice.email);
    const bobCookie = await signInCookie(ctx, bob.email);

    const a = await getProfile(ctx, aliceCookie);
    expect(a.statusCode).toBe(200);
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.json<ProfileBody>()).toEqual({
      id: alice.id,
      email: alice.email,
      role: "user",
      locale: "fr",
      emailVerified: true,
      onboardingCompleted: true,
      twoFactorEnabled: false,
      createdAt: expect.any(String),
    });
    const b = await getProfile(ctx, bobCookie);
    expect(b.json<ProfileBody>()).toMatchObject({ id: bob.id, email: bob.email, onboardingCompleted: false });
    // Nothing of one account appears in the other's answer, nor does the password hash.
    expect(b.body).not.toContain(alice.email);
    expect(b.body).not.toContain(alice.id);
    expect(a.body).not.toContain("argon2");

    // Onboarding data is per account too.
    const onboarded = await ctx.app.inject({
      method: "POST",
      url: "/profile/onboarding",
      headers: { cookie: aliceCookie },
      payload: {
        kind: "professional",
        companyName: "Alice SAS",
        registrationNumber: "RCS 1",
        vatNumber: "FR12345678901",
        address: { line1: "1 rue A", city: "Lyon", postalCode: "69001", country: "FR" },
      },
    });
    expect(onboarded.statusCode).toBe(200);
    const bobOnboarding = await ctx.app.inject({
      method: "GET",
      url: "/profile/onboarding",
      headers: { cookie: bobCookie },
    });
    expect(bobOnboarding.json()).toEqual({ onboarding: null });
  });

  it("answers null without a session, not an error (decision 021), and no other account route does", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/profile" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toBeNull();
    const onboarding = await ctx.app.inject({ method: "GET", url: "/profile/onboarding" });
    expect(onboarding.statusCode).toBe(401);
    expect(errorOf(onboarding).error).toBe("UnauthorizedException");
  });

  it("shows an admin's role", async () => {
    const admin = await insertAccount(ctx.database, { role: "admin" });
    const cookie = await signInCookie(ctx, admin.email);
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().role).toBe("admin");
  });
});

describe("PATCH /profile/locale", () => {
  it("changes the language of later e-mails", async () => {
    const account = await insertAccount(ctx.database, { locale: "en" });
    const cookie = await signInCookie(ctx, account.email);
    await ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email: account.email } });
    const before = await lastMail(ctx, account.email, "reset-password");
    expect(before).toMatchObject({ locale: "en", subject: "Reset your Salelink password" });

    const res = await ctx.app.inject({
      method: "PATCH",
      url: "/profile/locale",
      headers: { cookie },
      payload: { locale: "es" },
    });
    expect(res.statusCode).toBe(200);
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().locale).toBe("es");

    await ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email: account.email } });
    const after = await lastMail(ctx, account.email, "reset-password");
    expect(after).toMatchObject({ locale: "es", subject: "Restablece tu contraseña de Salelink" });

    await ctx.app.inject({
      method: "PATCH",
      url: "/profile/locale",
      headers: { cookie },
      payload: { locale: "fr" },
    });
    await ctx.app.inject({ method: "POST", url: "/profile/delete", headers: { cookie } });
    expect(await lastMail(ctx, account.email, "delete-account")).toMatchObject({
      locale: "fr",
      subject: "Confirmez la suppression de votre compte Salelink",
    });
  });

  it("refuses an unknown language and a call without a session", async () => {
    const account = await insertAccount(ctx.database, { locale: "fr" });
    const cookie = await signInCookie(ctx, account.email);
    const bad = await ctx.app.inject({
      method: "PATCH",
      url: "/profile/locale",
      headers: { cookie },
      payload: { locale: "de" },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).errors).toHaveProperty("locale");
    expect((await userRow(ctx.database, account.id)).locale).toBe("fr");
    const anonymous = await ctx.app.inject({
      method: "PATCH",
      url: "/profile/locale",
      payload: { locale: "es" },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("foreign origins", () => {
  const FOREIGN = "https://evil.example";

  it("refuses every state-changing accounts call from a foreign Origin with 403, and nothing changes", async () => {
    const account = await insertAccount(ctx.database, { locale: "en" });
    const cookie = await signInCookie(ctx, account.email);
    await ctx.app.inject({ method: "POST", url: "/profile/delete", headers: { cookie } });
    const deletion = await deletionToken(ctx, account.email);
    const newcomer = uniqueEmail("csrf");
    const mailsBefore = (await mailsTo(ctx, account.email)).length;

    const calls: InjectOptions[] = [
      {
        method: "POST",
        url: "/auth/signup",
        payload: {
          email: newcomer,
          password: PASSWORD,
          acceptTerms: true,
          locale: "en",
          turnstileToken: HUMAN,
        },
      },
      { method: "POST", url: "/auth/signin", payload: { email: account.email, password: PASSWORD } },
      { method: "POST", url: "/auth/logout" },
      { method: "POST", url: "/auth/password/send", payload: { email: account.email } },
      { method: "POST", url: "/auth/email/resend", payload: { email: account.email } },
      {
        method: "PATCH",
        url: "/auth/password",
        payload: { oldPassword: PASSWORD, newPassword: OTHER_PASSWORD, turnstileToken: HUMAN },
      },
      { method: "POST", url: "/auth/2fa/setup" },
      { method: "PATCH", url: "/profile/locale", payload: { locale: "es" } },
      { method: "POST", url: "/profile/delete" },
      { method: "DELETE", url: `/profile/delete/${deletion}` },
    ];
    for (const call of calls) {
      const res = await ctx.app.inject({ ...call, headers: { cookie, origin: FOREIGN } });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(errorOf(res).error).toBe("ForbiddenException");
      expect(res.cookies.find((c) => c.name === "sid")).toBeUndefined();
    }

    expect(await countUsersWithEmail(ctx.database, newcomer)).toBe(0);
    const row = await userRow(ctx.database, account.id);
    expect(row).toMatchObject({ locale: "en", deletedAt: null, twoFactorSecret: null });
    expect((await getProfile(ctx, cookie)).statusCode).toBe(200);
    expect((await signIn(ctx, account.email, PASSWORD)).statusCode).toBe(200);
    expect(await mailsTo(ctx, account.email)).toHaveLength(mailsBefore);

    // The same calls from the web origin go through (spot check).
    const fromWeb = await ctx.app.inject({
      method: "PATCH",
      url: "/profile/locale",
      headers: { cookie, origin: ctx.config.WEB_ORIGIN },
      payload: { locale: "es" },
    });
    expect(fromWeb.statusCode).toBe(200);
  });

  it('also refuses the opaque origin "null"', async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/profile/delete",
      headers: { cookie, origin: "null" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("lets reads through from anywhere (they change nothing)", async () => {
    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const res = await ctx.app.inject({
      method: "GET",
      url: "/profile",
      headers: { cookie, origin: FOREIGN },
    });
    expect(res.statusCode).toBe(200);
    // But CORS does not let a foreign page read it.
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
