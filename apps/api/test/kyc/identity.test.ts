import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityEvents, identitySessions, onboardingProfiles } from "../../src/db/schema/index.ts";
import { identityApproved } from "../../src/modules/kyc/queries.ts";
import {
  SANDBOX_CLIENT_KEY,
  sandboxIdentitySecret,
  signBody,
  type VeriffDecisionWebhook,
} from "../../src/providers/identity/index.ts";
import { deletionToken, directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  // The session route's per-address limit is out of the way; the daily rule is what is tested.
  ctx = await testApp({ RATE_LIMIT_PASSWORD_MAX: "10000", RATE_LIMIT_EMAIL_MAX: "10000" });
});
afterAll(async () => {
  await ctx.close();
});

interface Person {
  id: string;
  email: string;
  cookie: string;
}

/** An onboarded account, with its names on file unless `names` is false (a professional account). */
async function person(names = true): Promise<Person> {
  const account = await insertAccount(ctx.database, { onboarded: true });
  await ctx.database.db.insert(onboardingProfiles).values({
    userId: account.id,
    kind: names ? "individual" : "professional",
    firstName: names ? "Ada" : null,
    lastName: names ? "Lovelace" : null,
    dateOfBirth: names ? "1990-12-10" : null,
    companyName: names ? null : "Analytical Engines Ltd",
    registrationNumber: names ? null : "RCS 123",
    vatNumber: names ? null : "FR123",
    addressLine1: "1 rue de Rivoli",
    city: "Paris",
    postalCode: "75001",
    country: "FR",
  });
  return {
    id: account.id,
    email: account.email,
    cookie: await directSessionCookie(ctx.database, account.id),
  };
}

const start = (who: Person, payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: "POST",
    url: "/identity/sessions",
    headers: { cookie: who.cookie, ...headers },
    payload,
  });

async function state(who: Person) {
  const res = await ctx.app.inject({ method: "GET", url: "/identity", headers: { cookie: who.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function rowsOf(who: Person) {
  return ctx.database.db.select().from(identitySessions).where(eq(identitySessions.userId, who.id));
}

async function onlyRow(who: Person) {
  const rows = await rowsOf(who);
  expect(rows).toHaveLength(1);
  const [row] = rows;
  if (!row) throw new Error("no session");
  return row;
}

/** Delivers a payload to the webhook, signed as the sandbox signs (or with another key/secret). */
function deliver(payload: unknown, signing: { key?: string; secret?: string; tamper?: boolean } = {}) {
  const raw = JSON.stringify(payload);
  const signature = signBody(raw, signing.secret ?? sandboxIdentitySecret(ctx.config.appSecret));
  return ctx.app.inject({
    method: "POST",
    url: "/webhooks/identity/sandbox",
    headers: {
      "content-type": "application/json",
      "x-auth-client": signing.key ?? SANDBOX_CLIENT_KEY,
      "x-hmac-signature": signature,
    },
    payload: signing.tamper ? raw.replace("approved", "declined") : raw,
  });
}

function decision(
  providerSessionId: string,
  status: VeriffDecisionWebhook["verification"]["status"],
  reason: string | null = null,
  attemptId = randomUUID(),
): VeriffDecisionWebhook {
  return {
    status: "success",
    verification: { id: providerSessionId, attemptId, status, reason, reasonCode: reason ? 102 : null },
  };
}

const progress = (providerSessionId: string, action: "started" | "submitted", attemptId = randomUUID()) => ({
  id: providerSessionId,
  attemptId,
  feature: "selfid",
  code: action === "started" ? 7001 : 7002,
  action,
});

/** Opens a session and closes it with a decline, freeing the account to start another. */
async function declinedSession(who: Person) {
  const res = await start(who);
  expect(res.statusCode, res.body).toBe(201);
  const row = (await rowsOf(who)).find((r) => r.id === res.json().id);
  if (!row) throw new Error("no session row");
  expect((await deliver(decision(row.providerSessionId, "declined", "Document expired"))).statusCode).toBe(
    200,
  );
  return row;
}

describe("the identity form", () => {
  it("asks for the names when the account has none on file, in the caller's language", async () => {
    const pro = await person(false);
    expect((await state(pro)).namesOnFile).toBe(false);
    const res = await start(pro, {}, { "x-locale": "fr" });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toEqual({
      givenName: ["Saisissez votre prénom."],
      lastName: ["Saisissez votre nom de famille."],
    });
    const blank = await start(pro, { givenName: "  ", lastName: "Lovelace" });
    expect(errorOf(blank).errors).toEqual({ givenName: ["Enter your given name."] });
    expect(await rowsOf(pro)).toHaveLength(0);

    const ok = await start(pro, { givenName: "Ada", lastName: "Byron" });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await onlyRow(pro)).toMatchObject({ firstName: "Ada", lastName: "Byron" });
  });

  it("takes vendorData up to 1000 characters, not 1001", async () => {
    const who = await person();
    const tooLong = await start(who, { vendorData: "x".repeat(1001) }, { "x-locale": "es" });
    expect(tooLong.statusCode).toBe(400);
    expect(errorOf(tooLong).errors?.vendorData).toEqual(["1000 caracteres como máximo."]);
    expect(await rowsOf(who)).toHaveLength(0);
    const fits = await start(who, { vendorData: "x".repeat(1000) });
    expect(fits.statusCode, fits.body).toBe(201);
    expect((await onlyRow(who)).vendorData).toHaveLength(1000);
  });

  it("uses the names on file, which win over typed ones", async () => {
    const who = await person();
    expect((await state(who)).namesOnFile).toBe(true);
    const res = await start(who, { givenName: "Someone", lastName: "Else" });
    expect(res.statusCode, res.body).toBe(201);
    expect(await onlyRow(who)).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
  });
});

describe("starting sessions", () => {
  it("answers the sandbox's page for a new session and resumes it instead of opening another", async () => {
    const who = await person();
    const first = await start(who);
    expect(first.statusCode, first.body).toBe(201);
    const session = first.json();
    expect(session).toMatchObject({
      status: "created",
      resumed: false,
      url: `${ctx.config.WEB_ORIGIN}/identity/sandbox/${session.id}`,
    });
    const again = await start(who);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: session.id, resumed: true });
    expect(await rowsOf(who)).toHaveLength(1);
    expect(await state(who)).toMatchObject({
      status: "created",
      session: { id: session.id },
      sessionsLeftToday: 1,
      provider: "sandbox",
    });
  });

  it("allows 2 sessions a day, then says when the next one is possible", async () => {
    const who = await person();
    const first = await declinedSession(who);
    await declinedSession(who);
    const third = await start(who);
    expect(third.statusCode).toBe(429);
    expect(errorOf(third).error).toBe("RateLimitException");
    expect(errorOf(third).message).toMatch(
      /^You can start 2 identity checks a day\. You can start a new one in (23 h \d+|24 h 0) min\.$/,
    );
    expect(Number(third.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    expect(errorOf(await start(who, {}, { "x-locale": "fr" })).message).toMatch(
      /^Vous pouvez lancer 2 vérifications d'identité par jour\. Vous pourrez en lancer une nouvelle dans 2\d h \d+ min\.$/,
    );
    expect(await state(who)).toMatchObject({
      sessionsLeftToday: 0,
      nextSessionAt: new Date(first.createdAt.getTime() + 86_400_000).toISOString(),
    });
    expect(await rowsOf(who)).toHaveLength(2);

    // A day later the oldest leaves the window.
    await ctx.database.db
      .update(identitySessions)
      .set({ createdAt: new Date(Date.now() - 86_400_000 - 1000) })
      .where(eq(identitySessions.id, first.id));
    expect((await start(who)).statusCode).toBe(201);
  });

  it("never opens two sessions or goes past the daily limit under concurrent requests", async () => {
    const who = await person();
    const burst = async () => Promise.all(Array.from({ length: 6 }, () => start(who)));
    const decline = async () => {
      const open = (await rowsOf(who)).filter((r) => r.status === "created");
      expect(open).toHaveLength(1);
      await deliver(decision(open[0]?.providerSessionId ?? "", "declined", "Blurry"));
    };

    const first = await burst();
    expect(first.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const res of first) expect([200, 201, 409]).toContain(res.statusCode);
    await decline();
    const second = await burst();
    expect(second.filter((r) => r.statusCode === 201)).toHaveLength(1);
    await decline();
    const third = await burst();
    expect(third.map((r) => r.statusCode)).toEqual([429, 429, 429, 429, 429, 429]);
    expect(await rowsOf(who)).toHaveLength(2);
  });

  it("does not resume a session past its 7 days, and shows it as expired", async () => {
    const who = await person();
    const old = await start(who);
    await ctx.database.db
      .update(identitySessions)
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(identitySessions.id, old.json().id));
    expect(await state(who)).toMatchObject({ status: "expired", session: null, sessionsLeftToday: 2 });
    const fresh = await start(who);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().id).not.toBe(old.json().id);
  });

  it("needs a signed-in account", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/identity" })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: "POST", url: "/identity/sessions", payload: {} })).statusCode,
    ).toBe(401);
  });
});

describe("the identity webhook", () => {
  it("refuses a delivery that is not authentic and changes nothing", async () => {
    const who = await person();
    await start(who);
    const row = await onlyRow(who);
    const approve = decision(row.providerSessionId, "approved");
    const eventCount = async () => (await ctx.database.db.select({ n: count() }).from(identityEvents))[0]?.n;
    const before = await eventCount();
    const refused = [
      await deliver(approve, { secret: "not-the-secret" }),
      await deliver(approve, { key: "someone-else" }),
      await deliver(approve, { tamper: true }),
      await ctx.app.inject({
        method: "POST",
        url: "/webhooks/identity/sandbox",
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(approve),
      }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).message).toBe("The signature is not valid.");
    }
    expect((await onlyRow(who)).status).toBe("created");
    expect(await eventCount()).toBe(before);
    expect(await identityApproved(ctx.database.db, who.id)).toBe(false);
    // Only the configured provider's address exists.
    expect(
      (await ctx.app.inject({ method: "POST", url: "/webhooks/identity/veriff", payload: {} })).statusCode,
    ).toBe(404);
  });

  it("applies a decision once, however often and however concurrently it is delivered", async () => {
    const who = await person();
    await start(who);
    const row = await onlyRow(who);
    const approve = decision(row.providerSessionId, "approved");
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push((await deliver(approve)).json().result);
    expect(sequential).toEqual(["applied", "duplicate", "duplicate", "duplicate", "duplicate"]);

    const other = await person();
    await start(other);
    const otherRow = await onlyRow(other);
    const decline = decision(otherRow.providerSessionId, "declined", "Document expired");
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => deliver(decline)));
    expect(concurrent.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(concurrent.map((r) => r.json().result).sort()).toEqual([
      "applied",
      "duplicate",
      "duplicate",
      "duplicate",
      "duplicate",
    ]);
    const events = await ctx.database.db
      .select({ n: count() })
      .from(identityEvents)
      .where(eq(identityEvents.sessionId, otherRow.id));
    expect(events[0]?.n).toBe(1);
    expect(await onlyRow(who)).toMatchObject({ status: "approved", reason: null });
    expect(await onlyRow(other)).toMatchObject({ status: "declined", reason: "Document expired" });
  });

  it("moves with the person's progress but never lets late progress undo a decision", async () => {
    const who = await person();
    await start(who);
    const { providerSessionId: sid } = await onlyRow(who);
    const attempt = randomUUID();
    expect((await deliver(progress(sid, "submitted", attempt))).json().result).toBe("applied");
    // "started" arriving after "submitted" is old news.
    expect((await deliver(progress(sid, "started", attempt))).json().result).toBe("ignored");
    expect((await onlyRow(who)).status).toBe("submitted");
    expect((await deliver(decision(sid, "approved", null, attempt))).json().result).toBe("applied");
    expect((await deliver(progress(sid, "submitted", randomUUID()))).json().result).toBe("ignored");
    // A final decision is never replaced, not even by another decision.
    expect((await deliver(decision(sid, "declined", "Too late"))).json().result).toBe("ignored");
    expect(await onlyRow(who)).toMatchObject({ status: "approved", reason: null });
    expect(await identityApproved(ctx.database.db, who.id)).toBe(true);
  });

  it("shows a decline's reason and lets the person try again", async () => {
    const who = await person();
    await declinedSession(who);
    expect(await state(who)).toMatchObject({
      status: "declined",
      reason: "Document expired",
      session: null,
      sessionsLeftToday: 1,
    });
    expect((await start(who)).statusCode).toBe(201);
    expect(await state(who)).toMatchObject({ status: "created", reason: null });
  });

  it("keeps a resubmission resumable until its decision", async () => {
    const who = await person();
    const opened = (await start(who)).json();
    const { providerSessionId: sid } = await onlyRow(who);
    await deliver(decision(sid, "resubmission_requested", "Photo too dark"));
    // Progress of the new attempt keeps the request (and its reason) on show.
    await deliver(progress(sid, "started"));
    expect(await state(who)).toMatchObject({
      status: "resubmission_requested",
      reason: "Photo too dark",
      session: { id: opened.id },
    });
    expect((await start(who)).json()).toMatchObject({ id: opened.id, resumed: true });
    await deliver(decision(sid, "approved"));
    expect(await state(who)).toMatchObject({ status: "approved", reason: null, session: null });
    const again = await start(who);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe("Your identity is already verified.");
  });
});

describe("the sandbox's page", () => {
  const page = (who: Person, id: string) =>
    ctx.app.inject({
      method: "GET",
      url: `/identity/sandbox/sessions/${id}`,
      headers: { cookie: who.cookie },
    });
  const decide = (who: Person, id: string, body: Record<string, unknown>) =>
    ctx.app.inject({
      method: "POST",
      url: `/identity/sandbox/sessions/${id}/decision`,
      headers: { cookie: who.cookie },
      payload: body,
    });

  it("sends the chosen outcome through the signed webhook", async () => {
    const who = await person();
    const { id } = (await start(who)).json();
    const shown = await page(who, id);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id, status: "created", firstName: "Ada", lastName: "Lovelace" });

    const res = await decide(who, id, { outcome: "approved" });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().message).toMatch(/sandbox/);
    // Nothing changes until the delivery job runs the webhook's handler.
    expect((await state(who)).status).toBe("created");
    await ctx.app.services.jobs.worker.runDue();
    expect((await state(who)).status).toBe("approved");
    const events = await ctx.database.db
      .select()
      .from(identityEvents)
      .where(eq(identityEvents.sessionId, id));
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ webhook: "decision", status: "approved" });

    const late = await decide(who, id, { outcome: "declined" });
    expect(late.statusCode).toBe(409);
  });

  it("declines with the reason given on the page", async () => {
    const who = await person();
    const { id } = (await start(who)).json();
    expect((await decide(who, id, { outcome: "declined", reason: "Name does not match" })).statusCode).toBe(
      202,
    );
    await ctx.app.services.jobs.worker.runDue();
    expect(await state(who)).toMatchObject({ status: "declined", reason: "Name does not match" });
  });

  it("is someone else's business only for its owner (404)", async () => {
    const owner = await person();
    const stranger = await person();
    const { id } = (await start(owner)).json();
    expect((await page(stranger, id)).statusCode).toBe(404);
    expect((await decide(stranger, id, { outcome: "approved" })).statusCode).toBe(404);
    expect((await page(owner, randomUUID())).statusCode).toBe(404);
    await ctx.app.services.jobs.worker.runDue();
    expect((await state(owner)).status).toBe("created");
  });
});

describe("account deletion", () => {
  it("erases the identity sessions and their events", async () => {
    const who = await person();
    await start(who);
    const { providerSessionId: sid, id } = await onlyRow(who);
    await deliver(decision(sid, "declined", "Document expired"));
    const asked = await ctx.app.inject({
      method: "POST",
      url: "/profile/delete",
      headers: { cookie: who.cookie },
    });
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const token = await deletionToken(ctx, who.email);
    const deleted = await ctx.app.inject({ method: "DELETE", url: `/profile/delete/${token}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowsOf(who)).toHaveLength(0);
    const events = await ctx.database.db
      .select()
      .from(identityEvents)
      .where(eq(identityEvents.sessionId, id));
    expect(events).toHaveLength(0);
  });
});
