import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInCookie, type TestContext, testApp } from "./helpers.ts";

let ctx: TestContext;
let adminCookie: string;
let userCookie: string;

beforeAll(async () => {
  ctx = await testApp({ MAINTENANCE_CACHE_SECONDS: "0" }, (app) => {
    // Any ordinary state-changing route, as later modules add them.
    app.post("/test/write", async () => ({ ok: true }));
  });
  adminCookie = await signInCookie(ctx.app, (await createUser(ctx.database, { role: "admin" })).email);
  userCookie = await signInCookie(ctx.app, (await createUser(ctx.database)).email);
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
    const admin = await createUser(ctx.database, { role: "admin" });
    expect((await signInCookie(ctx.app, admin.email)).startsWith("sid=")).toBe(true);

    const off = await setMaintenance(adminCookie, { maintenance: false });
    expect(off.json()).toMatchObject({ maintenance: false, message: { en: "Upgrading" } });
    expect((await status()).maintenance).toBe(false);
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
