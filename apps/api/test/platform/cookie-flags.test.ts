import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAccount, PASSWORD, signInCookie } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

/** The attributes of every Set-Cookie header of an answer, by cookie name (attribute names lower-cased). */
function setCookies(res: LightMyRequestResponse): Map<string, Map<string, string>> {
  const raw = res.headers["set-cookie"];
  const headers = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return new Map(
    headers.map((header) => {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf("="));
      return [
        name,
        new Map(
          attributes.map((a) => {
            const eq = a.indexOf("=");
            return eq < 0 ? [a.toLowerCase(), ""] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)];
          }),
        ),
      ];
    }),
  );
}

/** The flags the session cookie must always carry (COOKIE_SECURE is what production defaults to). */
function expectSessionFlags(attributes: Map<string, string> | undefined, secure: boolean): void {
  expect(attributes, "the answer sets the session cookie").toBeDefined();
  expect(attributes?.has("httponly"), "HttpOnly: scripts never read the session").toBe(true);
  expect(attributes?.get("samesite")).toBe("Lax");
  expect(attributes?.get("path")).toBe("/");
  expect(attributes?.has("secure")).toBe(secure);
  expect(attributes?.has("domain"), "no Domain unless COOKIE_DOMAIN is set").toBe(false);
}

describe.each([
  { label: "production (COOKIE_SECURE=true)", secure: true, overrides: { COOKIE_SECURE: "true" } },
  { label: "local http", secure: false, overrides: { COOKIE_SECURE: "false" } },
])("session cookie flags, $label", ({ secure, overrides }) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await testApp({ ...overrides, SESSION_TTL_DAYS: "30", RATE_LIMIT_SIGNIN_MAX: "1000" });
  });
  afterAll(() => ctx.close());

  it("sign-in sets sid HttpOnly, SameSite=Lax, Path=/ for the configured session length", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: user.email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const cookies = setCookies(res);
    expect([...cookies.keys()]).toEqual(["sid"]);
    const sid = cookies.get("sid");
    expectSessionFlags(sid, secure);
    expect(sid?.get("max-age")).toBe(String(30 * 24 * 3600));
  });

  it("sign-out and a password change clear it with the same flags", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await signInCookie(ctx, user.email);
    const logout = await ctx.app.inject({ method: "POST", url: "/auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    const cleared = setCookies(logout).get("sid");
    expectSessionFlags(cleared, secure);
    expect(cleared?.get("max-age")).toBe("0");

    const again = await signInCookie(ctx, user.email);
    const change = await ctx.app.inject({
      method: "PATCH",
      url: "/auth/password",
      headers: { cookie: again },
      payload: {
        oldPassword: PASSWORD,
        newPassword: "a-brand-new-long-password",
        turnstileToken: "sandbox-pass",
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    const changed = setCookies(change).get("sid");
    expectSessionFlags(changed, secure);
    expect(changed?.get("max-age")).toBe("0");
  });

  it("no other answer sets a cookie (public pages' data, the profile, a refused sign-in)", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await signInCookie(ctx, user.email);
    const requests = [
      { method: "GET" as const, url: "/health" },
      { method: "GET" as const, url: "/profile", headers: { cookie } },
      { method: "GET" as const, url: "/profile" },
      {
        method: "POST" as const,
        url: "/auth/signin",
        payload: { email: user.email, password: "not-it-at-all" },
      },
    ];
    for (const request of requests) {
      const res = await ctx.app.inject(request);
      expect(res.headers["set-cookie"], `${request.method} ${request.url}`).toBeUndefined();
    }
  });
});
