import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAccount, PASSWORD, signInCookie } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("health, docs and the error format", () => {
  it("GET /health reports the database", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok", database: "ok" });
  });

  it("serves the OpenAPI document generated from the route schemas, and the docs page", async () => {
    const doc = (await ctx.app.inject({ method: "GET", url: "/docs/json" })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/maintenance", "/auth/signin", "/profile", "/health"]),
    );
    expect(
      doc.paths["/auth/signin"].post.requestBody.content["application/json"].schema.properties,
    ).toHaveProperty("email");
    const page = await ctx.app.inject({ method: "GET", url: "/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("answers validation failures with 400, the exception name and per-field errors", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: "not-an-email" },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 400, error: "ValidationException" });
    expect(typeof body.message).toBe("string");
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("answers malformed JSON with 400 and no stack trace", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      headers: { "content-type": "application/json" },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: "BadRequestException",
      message: "The request is malformed.",
    });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it("answers unknown routes with 404 NotFoundException", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/no/such/route" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: "NotFoundException", message: "Not found." });
  });

  it("refuses state-changing calls from foreign origins", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { origin: "https://evil.example" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ForbiddenException");
    const ok = await ctx.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { origin: ctx.config.WEB_ORIGIN },
    });
    expect(ok.statusCode).toBe(200);
  });

  it("allows the web origin with credentials (CORS)", async () => {
    const res = await ctx.app.inject({
      method: "OPTIONS",
      url: "/maintenance",
      headers: { origin: ctx.config.WEB_ORIGIN, "access-control-request-method": "GET" },
    });
    expect(res.headers["access-control-allow-origin"]).toBe(ctx.config.WEB_ORIGIN);
    expect(res.headers["access-control-allow-credentials"]).toBe("true");
  });
});

describe("sessions", () => {
  it("signs in with an httpOnly cookie, reads the profile, and logs out", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true, role: "admin" });
    const cookie = await signInCookie(ctx, user.email);
    const profile = await ctx.app.inject({ method: "GET", url: "/profile", headers: { cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      id: user.id,
      email: user.email,
      role: "admin",
      emailVerified: true,
    });

    const logout = await ctx.app.inject({ method: "POST", url: "/auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    const after = await ctx.app.inject({ method: "GET", url: "/profile", headers: { cookie } });
    // Asking who is signed in is not an error when nobody is (decision 021).
    expect(after.statusCode).toBe(200);
    expect(after.json()).toBeNull();
  });

  it("sets the cookie httpOnly and SameSite=Lax, and stores only the token's hash", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: user.email, password: PASSWORD },
    });
    const cookie = res.cookies.find((c) => c.name === "sid");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    const rows = await ctx.database.db.query.sessions.findMany();
    expect(rows.some((r) => r.tokenHash === cookie?.value)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it("answers wrong credentials with 400 and the same message for unknown e-mails", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true });
    const wrong = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: user.email, password: "wrong-password" },
    });
    const unknown = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: "nobody@example.test", password: "wrong-password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe("Invalid user credentials. Please try again.");
  });

  it("refuses unverified accounts with 401 UnverifiedAccountException", async () => {
    const user = await insertAccount(ctx.database, { onboarded: true, verified: false });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/auth/signin",
      payload: { email: user.email, password: PASSWORD },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("UnverifiedAccountException");
  });
});
