import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode } from "../../src/lib/totp.ts";
import { insertAccount, PASSWORD, signInCookie } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
let adminCookie: string;
let userCookie: string;

beforeAll(async () => {
  ctx = await testApp({ MAINTENANCE_CACHE_SECONDS: "0" }, (app) => {
    // Any ordinary state-changing route, as later modules add them.
    app.post("/test/write", async () => ({ ok: true }));
  });
  adminCookie = await signInCookie(
    ctx,
    (await insertAccount(ctx.database, { onboarded: true, role: "admin" })).email,
  );
  userCookie = await signInCookie(ctx, (await insertAccount(ctx.database, { onboarded: true })).email);
});
afterAll(async () => {
  await ctx.close();
});

const status = async () => (await ctx.app.inject({ method: "GET", url: "/maintenance" })).json();
const setMaintenance = (cookie: string | undefined, body: unknown) =>
  ctx.app.inject({
    method: "PUT",
    url: "/admin/maintenance",
    headers: cookie ? { cookie } : {},
    payload: body as object,
  });

describe("maintenance", () => {
  it("is off by default, with the re-check cooldown and no date", async () => {
    expect(await status()).toEqual({
      maintenance: false,
      cooldown: 60_000,
      lastUpdated: null,
      message: null,
    });
  });

  it("only admins switch it", async () => {
    expect((await setMaintenance(undefined, { maintenance: true })).statusCode).toBe(401);
    const forbidden = await setMaintenance(userCookie, { maintenance: true });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe("ForbiddenException");
    expect((await status()).maintenance).toBe(false);
  });

  it("validates the body", async () => {
    const res = await setMaintenance(adminCookie, { maintenance: "yes", message: { de: "x" } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty("maintenance");
  });

  it("switches on with a message per language, blocks non-admin writes, and switches off", async () => {
    const before = Date.now();
    const on = await setMaintenance(adminCookie, {
      maintenance: true,
      message: { en: "Upgrading", fr: "Mise à jour" },
    });
    expect(on.statusCode).toBe(200);
    const current = await status();
    expect(current).toMatchObject({ maintenance: true, message: { en: "Upgrading", fr: "Mise à jour" } });
    expect(new Date(current.lastUpdated).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Writes by non-admins are refused while it is on; sign-in and reads keep working.
    const write = await ctx.app.inject({
      method: "POST",
      url: "/test/write",
      headers: { cookie: userCookie },
    });
    expect(write.statusCode).toBe(503);
    expect(write.json().error).toBe("MaintenanceException");
    const anonymous = await ctx.app.inject({ method: "POST", url: "/test/write" });
    expect(anonymous.statusCode).toBe(503);
    const byAdmin = await ctx.app.inject({
      method: "POST",
      url: "/test/write",
      headers: { cookie: adminCookie },
    });
    expect(byAdmin.statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: "POST", url: "/auth/logout", headers: { cookie: "sid=x" } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/profile", headers: { cookie: userCookie } })).statusCode,
    ).toBe(200);
    const admin = await insertAccount(ctx.database, { onboarded: true, role: "admin" });
    expect((await signInCookie(ctx, admin.email)).startsWith("sid=")).toBe(true);

    const off = await setMaintenance(adminCookie, { maintenance: false });
    expect(off.json()).toMatchObject({ maintenance: false, message: { en: "Upgrading" } });
    expect((await status()).maintenance).toBe(false);
  });

  it("lets everyone sign in during maintenance, 2FA included; only admins may then write (issue 17)", async () => {
    // An admin who protects the account with 2FA turns it on before maintenance.
    const admin = await insertAccount(ctx.database, { onboarded: true, role: "admin" });
    const cookie = await signInCookie(ctx, admin.email);
    const setup = await ctx.app.inject({ method: "POST", url: "/auth/2fa/setup", headers: { cookie } });
    const { secret } = setup.json<{ secret: string }>();
    const enabled = await ctx.app.inject({
      method: "POST",
      url: "/auth/2fa/enable",
      headers: { cookie },
      payload: { code: totpCode(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    expect((await setMaintenance(adminCookie, { maintenance: true })).statusCode).toBe(200);
    try {
      const signIn = (payload: object) => ctx.app.inject({ method: "POST", url: "/auth/signin", payload });
      // The 2FA step is the same call with the code: neither is refused for maintenance.
      const withoutCode = await signIn({ email: admin.email, password: PASSWORD });
      expect(withoutCode.json().error).not.toBe("MaintenanceException");
      // The next step's code: the one that turned 2FA on cannot be played again.
      const code = totpCode(secret, Date.now() + 30_000);
      const withCode = await signIn({ email: admin.email, password: PASSWORD, code });
      expect(withCode.statusCode).toBe(200);
      const adminSession = String(withCode.headers["set-cookie"]).split(";")[0] ?? "";
      const profile = await ctx.app.inject({
        method: "GET",
        url: "/profile",
        headers: { cookie: adminSession },
      });
      expect(profile.json().role).toBe("admin");
      const off = await setMaintenance(adminSession, { maintenance: false });
      expect(off.statusCode).toBe(200);
      expect(off.json().maintenance).toBe(false);
      expect((await setMaintenance(adminSession, { maintenance: true })).statusCode).toBe(200);

      // A non-admin signs in and reads its profile (the web app then shows /maintenance) but writes nothing.
      const user = await insertAccount(ctx.database, { onboarded: true });
      const userSession = await signInCookie(ctx, user.email);
      const own = await ctx.app.inject({ method: "GET", url: "/profile", headers: { cookie: userSession } });
      expect(own.json().role).toBe("user");
      const write = await ctx.app.inject({
        method: "POST",
        url: "/test/write",
        headers: { cookie: userSession },
      });
      expect(write.statusCode).toBe(503);
      expect(write.json().error).toBe("MaintenanceException");
    } finally {
      await setMaintenance(adminCookie, { maintenance: false });
    }
  });

  it("answers from memory between database reads", async () => {
    const cached = await testApp({ MAINTENANCE_CACHE_SECONDS: "60" });
    try {
      expect((await cached.app.inject({ method: "GET", url: "/maintenance" })).json().maintenance).toBe(
        false,
      );
      // Switch it behind the service's back: the cached answer stands until it expires.
      await cached.database.db.execute(
        "insert into maintenance (id, enabled) values (1, true) on conflict (id) do update set enabled = true" as never,
      );
      expect((await cached.app.inject({ method: "GET", url: "/maintenance" })).json().maintenance).toBe(
        false,
      );
    } finally {
      await cached.close();
    }
  });
});
