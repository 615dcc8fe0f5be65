import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countUsersWithEmail,
  errorOf,
  HUMAN,
  insertAccount,
  mailsTo,
  OTHER_PASSWORD,
  PASSWORD,
  sessionCookieOf,
  signInCookie,
  uniqueEmail,
} from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp({
    RATE_LIMIT_SIGNUP_MAX: "2",
    RATE_LIMIT_SIGNIN_MAX: "3",
    RATE_LIMIT_EMAIL_MAX: "2",
    RATE_LIMIT_PASSWORD_MAX: "2",
  });
});
afterAll(async () => {
  await ctx.close();
});

/** Each test calls from its own address, so the counters of one test do not spill into another. */
let lastOctet = 10;
const newClient = () => `198.51.100.${lastOctet++}`;

const from = (ip: string, options: InjectOptions): Promise<LightMyRequestResponse> =>
  ctx.app.inject({ ...options, remoteAddress: ip });

function expectRateLimited(res: LightMyRequestResponse, status = 429): void {
  expect(res.statusCode).toBe(status);
  const body = errorOf(res);
  expect(body).toMatchObject({ statusCode: status, error: "RateLimitException" });
  expect(body.message).toMatch(/too many requests/i);
}

const signupBody = (email: string) => ({
  email,
  password: PASSWORD,
  acceptTerms: true,
  locale: "en",
  turnstileToken: HUMAN,
});

describe("rate limits", () => {
  it("sign-up: the third attempt answers 429 RateLimitException with a message, and creates nothing", async () => {
    const ip = newClient();
    for (let i = 0; i < 2; i += 1) {
      const res = await from(ip, {
        method: "POST",
        url: "/auth/signup",
        payload: signupBody(uniqueEmail("rl")),
      });
      expect(res.statusCode).toBe(201);
    }
    const email = uniqueEmail("rl-third");
    const third = await from(ip, { method: "POST", url: "/auth/signup", payload: signupBody(email) });
    expectRateLimited(third);
    expect(await countUsersWithEmail(ctx.database, email)).toBe(0);
    expect(await mailsTo(ctx, email)).toHaveLength(0);
  });

  it("sign-in: after 3 attempts even the right password answers 429 and opens no session", async () => {
    const account = await insertAccount(ctx.database);
    const ip = newClient();
    const attempt = (password: string) =>
      from(ip, { method: "POST", url: "/auth/signin", payload: { email: account.email, password } });
    for (let i = 0; i < 3; i += 1) expect((await attempt("not-the-password")).statusCode).toBe(400);
    const fourth = await attempt(PASSWORD);
    expectRateLimited(fourth);
    expect(sessionCookieOf(fourth)).toBeNull();
  });

  it("limits are per client address", async () => {
    const account = await insertAccount(ctx.database);
    const blocked = newClient();
    for (let i = 0; i < 4; i += 1) {
      await from(blocked, {
        method: "POST",
        url: "/auth/signin",
        payload: { email: account.email, password: "x" },
      });
    }
    const other = await from(newClient(), {
      method: "POST",
      url: "/auth/signin",
      payload: { email: account.email, password: PASSWORD },
    });
    expect(other.statusCode).toBe(200);
  });

  it("forgot password: the third request answers 401 RateLimitException (spec catalogue) and sends nothing", async () => {
    const account = await insertAccount(ctx.database);
    const ip = newClient();
    const send = () =>
      from(ip, { method: "POST", url: "/auth/password/send", payload: { email: account.email } });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    expectRateLimited(await send(), 401);
    expect((await mailsTo(ctx, account.email)).filter((m) => m.template === "reset-password")).toHaveLength(
      2,
    );
  });

  it("resend verification: the third request answers 429 and sends nothing", async () => {
    const account = await insertAccount(ctx.database, { verified: false });
    const ip = newClient();
    const resend = () =>
      from(ip, { method: "POST", url: "/auth/email/resend", payload: { email: account.email } });
    expect((await resend()).statusCode).toBe(200);
    expect((await resend()).statusCode).toBe(200);
    expectRateLimited(await resend());
    expect(await mailsTo(ctx, account.email)).toHaveLength(2);
  });

  it("password store and change: the third attempt answers 429", async () => {
    const ip = newClient();
    const store = () =>
      from(ip, {
        method: "POST",
        url: "/auth/password/store",
        payload: { token: "C".repeat(43), password: OTHER_PASSWORD, turnstileToken: HUMAN },
      });
    expect((await store()).statusCode).toBe(400);
    expect((await store()).statusCode).toBe(400);
    expectRateLimited(await store());

    const account = await insertAccount(ctx.database);
    const cookie = await signInCookie(ctx, account.email);
    const change = () =>
      from(ip, {
        method: "PATCH",
        url: "/auth/password",
        headers: { cookie },
        payload: { oldPassword: "not-the-password", newPassword: OTHER_PASSWORD, turnstileToken: HUMAN },
      });
    expect((await change()).statusCode).toBe(400);
    expect((await change()).statusCode).toBe(400);
    expectRateLimited(await change());
  });

  // Regression (found by this suite, since fixed): src/app.ts builds Fastify with `trustProxy: true`, so request.ip (the rate-limit key of
  // src/modules/auth/rate-limits.ts) is the left-most X-Forwarded-For entry, which the client writes
  // itself. Any client escapes every limit (sign-in brute force included) by sending a new
  // X-Forwarded-For with each request. The proxy trust should be configured (hop count or addresses),
  // off by default, so that only a real proxy's header is believed.
  it("a client cannot escape the sign-in limit by sending its own X-Forwarded-For", async () => {
    const account = await insertAccount(ctx.database);
    const ip = newClient();
    for (let i = 0; i < 3; i += 1) {
      await from(ip, {
        method: "POST",
        url: "/auth/signin",
        payload: { email: account.email, password: "x" },
      });
    }
    const spoofed = await from(ip, {
      method: "POST",
      url: "/auth/signin",
      headers: { "x-forwarded-for": "203.0.113.77" },
      payload: { email: account.email, password: PASSWORD },
    });
    expectRateLimited(spoofed);
  });
});
