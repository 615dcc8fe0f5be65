import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { identitySessions, onboardingProfiles } from "../../src/db/schema/index.ts";
import {
  type IdentityProvider,
  IdentityProviderError,
  IdentitySignatureError,
  signBody,
  VeriffIdentityProvider,
} from "../../src/providers/identity/index.ts";
import { directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { TEST_APP_SECRET, type TestContext, testApp, testConfig, testDatabase } from "../support/app.ts";
import {
  FAKE_VERIFF_KEY,
  FAKE_VERIFF_SECRET,
  type FakeVeriff,
  startFakeVeriff,
} from "../support/fake-veriff.ts";

let fake: FakeVeriff;
beforeAll(async () => {
  fake = await startFakeVeriff();
});
afterAll(async () => {
  await fake.close();
});

const body = (vendorData?: string) => ({
  verification: {
    callback: "http://localhost:3000/account/wallet?identity=done",
    person: { firstName: "Ada", lastName: "Lovelace" },
    ...(vendorData ? { vendorData } : {}),
    timestamp: new Date().toISOString(),
  },
});
const reference = { sessionId: randomUUID() };
const veriff = (
  overrides: Partial<ConstructorParameters<typeof VeriffIdentityProvider>[0]> = {},
): IdentityProvider =>
  new VeriffIdentityProvider({
    apiUrl: fake.url,
    apiKey: FAKE_VERIFF_KEY,
    sharedSecret: FAKE_VERIFF_SECRET,
    ...overrides,
  });

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("the Veriff adapter's session call", () => {
  it("POSTs the spec's body with the client key and its signature, and answers the session", async () => {
    const sent = body("order-42");
    const session = await veriff().createSession(sent, reference);
    expect(session.status).toBe("created");
    expect(session.url).toBe(`${fake.url}/v/${session.id}`);
    const seen = fake.requests.at(-1);
    expect(seen).toMatchObject({ method: "POST", path: "/v1/sessions", authClient: FAKE_VERIFF_KEY });
    expect(seen?.body).toEqual(sent);
    expect(seen?.signature).toBe(signBody(JSON.stringify(sent), FAKE_VERIFF_SECRET));
  });

  it("reports a refused key without repeating it", async () => {
    const error = await veriff({ apiKey: "wrong-key-1234" })
      .createSession(body(), reference)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityProviderError);
    expect((error as IdentityProviderError).statusCode).toBe(401);
    expect((error as Error).message).toMatch(/^Veriff refused the session \(401\): 1801/);
    expect((error as Error).message).not.toContain("wrong-key-1234");
  });

  it("reports an outage, a malformed answer, a slow provider and an unreachable one", async () => {
    fake.failNext(503, { status: "fail", code: "1500", message: "Service unavailable" });
    await expect(veriff().createSession(body(), reference)).rejects.toThrow(
      /Veriff refused the session \(503\): 1500 Service unavailable/,
    );
    fake.failNext(201, { status: "success", verification: { id: "x" } });
    await expect(veriff().createSession(body(), reference)).rejects.toThrow(/unexpected form/);
    fake.delayNext(400);
    await expect(veriff({ timeoutMs: 100 }).createSession(body(), reference)).rejects.toThrow(
      /Veriff did not answer within 100 ms/,
    );
    const port = await closedPort();
    await expect(
      veriff({ apiUrl: `http://127.0.0.1:${port}` }).createSession(body(), reference),
    ).rejects.toThrow(/Could not reach Veriff/);
  });
});

describe("the Veriff adapter's webhooks", () => {
  const signed = (payload: unknown, key = FAKE_VERIFF_KEY, secret = FAKE_VERIFF_SECRET) => {
    const raw = Buffer.from(JSON.stringify(payload));
    return {
      raw,
      headers: {
        "x-auth-client": key,
        "x-hmac-signature": signBody(raw, secret),
        "content-type": "application/json",
      },
    };
  };

  it("reads an authentic decision, keeping the decision but not the person's data", () => {
    const sessionId = randomUUID();
    const payload = fake.decision(sessionId, "declined", { reason: "Document expired", reasonCode: 102 });
    const { raw, headers } = signed(payload);
    const event = veriff().parseWebhook(raw, headers);
    expect(event).toMatchObject({
      sessionId,
      status: "declined",
      reason: "Document expired",
      reasonCode: "102",
      key: `decision:${sessionId}:${payload.verification.attemptId}:declined`,
    });
    expect(event?.occurredAt.toISOString()).toBe(payload.verification.decisionTime);
    expect(JSON.stringify(event?.raw)).not.toMatch(/Lovelace|X1234567|203\.0\.113/);
    // The same delivery again has the same key.
    expect(veriff().parseWebhook(raw, headers)?.key).toBe(event?.key);
  });

  it("reads progress events and ignores kinds it does not act on", () => {
    const sessionId = randomUUID();
    const started = signed(fake.event(sessionId, "started"));
    expect(veriff().parseWebhook(started.raw, started.headers)).toMatchObject({
      sessionId,
      status: "started",
    });
    const other = signed({ eventType: "user-status.created", data: {} });
    expect(veriff().parseWebhook(other.raw, other.headers)).toBeNull();
  });

  it("refuses a bad signature, another client key, an altered body and missing headers", () => {
    const payload = fake.decision(randomUUID(), "approved");
    const badSecret = signed(payload, FAKE_VERIFF_KEY, "another-secret");
    const badKey = signed(payload, "another-key");
    const good = signed(payload);
    const altered = Buffer.from(good.raw.toString().replace("approved", "declined"));
    for (const [raw, headers] of [
      [badSecret.raw, badSecret.headers],
      [badKey.raw, badKey.headers],
      [altered, good.headers],
      [good.raw, { "content-type": "application/json" }],
    ] as const) {
      expect(() => veriff().parseWebhook(raw, headers)).toThrow(IdentitySignatureError);
    }
    // Hex in capitals is the same signature.
    const upper = { ...good.headers, "x-hmac-signature": good.headers["x-hmac-signature"].toUpperCase() };
    expect(veriff().parseWebhook(good.raw, upper)?.status).toBe("approved");
  });
});

describe("the app with Veriff configured", () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await testApp({
      IDENTITY_PROVIDER: "veriff",
      VERIFF_API_URL: fake.url,
      VERIFF_API_KEY: FAKE_VERIFF_KEY,
      VERIFF_SHARED_SECRET: FAKE_VERIFF_SECRET,
      RATE_LIMIT_PASSWORD_MAX: "10000",
    });
    base = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function person() {
    const account = await insertAccount(ctx.database, { onboarded: true });
    await ctx.database.db.insert(onboardingProfiles).values({
      userId: account.id,
      kind: "individual",
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1990-12-10",
      addressLine1: "1 rue de Rivoli",
      city: "Paris",
      postalCode: "75001",
      country: "FR",
    });
    return { id: account.id, cookie: await directSessionCookie(ctx.database, account.id) };
  }
  const state = async (cookie: string) =>
    (await ctx.app.inject({ method: "GET", url: "/identity", headers: { cookie } })).json();

  it("opens a session at Veriff and applies its signed webhooks", async () => {
    const who = await person();
    const res = await ctx.app.inject({
      method: "POST",
      url: "/identity/sessions",
      headers: { cookie: who.cookie },
      payload: { vendorData: "creator-7" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await ctx.database.db
      .select()
      .from(identitySessions)
      .where(eq(identitySessions.userId, who.id));
    if (!row) throw new Error("no session");
    expect(res.json()).toMatchObject({
      id: row.id,
      url: `${fake.url}/v/${row.providerSessionId}`,
      resumed: false,
    });
    expect(row).toMatchObject({
      provider: "veriff",
      firstName: "Ada",
      lastName: "Lovelace",
      vendorData: "creator-7",
    });
    expect(fake.requests.at(-1)?.body).toMatchObject({
      verification: {
        callback: `${ctx.config.WEB_ORIGIN}/account/wallet?identity=done`,
        person: { firstName: "Ada", lastName: "Lovelace" },
        vendorData: "creator-7",
      },
    });
    expect((await state(who.cookie)).provider).toBe("veriff");

    const hook = `${base}/webhooks/identity/veriff`;
    const sid = row.providerSessionId;
    expect(await fake.sendWebhook(hook, fake.event(sid, "started"))).toMatchObject({ status: 200 });
    expect((await state(who.cookie)).status).toBe("started");
    const refused = await fake.sendWebhook(hook, fake.decision(sid, "approved"), { secret: "forged" });
    expect(refused.status).toBe(401);
    expect((await state(who.cookie)).status).toBe("started");
    const approved = await fake.sendWebhook(hook, fake.decision(sid, "approved"));
    expect(approved).toMatchObject({ status: 200, body: { result: "applied" } });
    expect(await state(who.cookie)).toMatchObject({ status: "approved", session: null });
  });

  it("answers 502 when Veriff fails, and the failed try does not count", async () => {
    const who = await person();
    fake.failNext(500, { status: "fail", code: "1500", message: "Internal error" });
    const res = await ctx.app.inject({
      method: "POST",
      url: "/identity/sessions",
      headers: { cookie: who.cookie, "x-locale": "fr" },
      payload: {},
    });
    expect(res.statusCode).toBe(502);
    expect(errorOf(res).message).toBe(
      "La vérification d'identité n'a pas pu démarrer. Veuillez réessayer dans quelques minutes.",
    );
    expect(
      await ctx.database.db.select().from(identitySessions).where(eq(identitySessions.userId, who.id)),
    ).toEqual([]);
    expect(await state(who.cookie)).toMatchObject({ status: "none", sessionsLeftToday: 2 });
  });

  it("has no sandbox page and no sandbox webhook", async () => {
    const who = await person();
    const page = await ctx.app.inject({
      method: "GET",
      url: `/identity/sandbox/sessions/${randomUUID()}`,
      headers: { cookie: who.cookie },
    });
    expect(page.statusCode).toBe(404);
    const hook = await ctx.app.inject({ method: "POST", url: "/webhooks/identity/sandbox", payload: {} });
    expect(hook.statusCode).toBe(404);
  });
});

describe("identity configuration", () => {
  it("needs Veriff's key and secret when Veriff is chosen", () => {
    expect(() => loadConfig({ IDENTITY_PROVIDER: "veriff" })).toThrow(ConfigError);
    expect(() => loadConfig({ IDENTITY_PROVIDER: "veriff" })).toThrow(
      /VERIFF_API_KEY.*\n.*VERIFF_SHARED_SECRET/,
    );
    expect(loadConfig({ APP_SECRET: TEST_APP_SECRET }).identity).toMatchObject({
      IDENTITY_PROVIDER: "sandbox",
      VERIFF_API_URL: "https://stationapi.veriff.com",
    });
  });

  it("counts the identity sandbox among the providers production refuses", async () => {
    const database = await testDatabase();
    try {
      const config = testConfig({ NODE_ENV: "production", APP_SECRET: "s".repeat(40) });
      await expect(buildApp({ config, db: database.db })).rejects.toThrow(/identity \(sandbox\)/);
    } finally {
      await database.close();
    }
  });
});
