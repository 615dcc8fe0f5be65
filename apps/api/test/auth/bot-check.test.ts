import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type BotCheck,
  botCheckEnvSchema,
  createBotCheck,
  SANDBOX_FAIL_TOKEN,
  SandboxBotCheck,
  TURNSTILE_VERIFY_URL,
  TurnstileBotCheck,
} from "../../src/providers/bot-check/index.ts";
import { assertProductionProviders, SandboxInProductionError } from "../../src/providers/production-guard.ts";

const SECRET = "test-secret-key";
const GOOD_TOKEN = "token-solved-by-a-human";

interface Received {
  contentType: string | undefined;
  fields: Record<string, string>;
}

/** What the fake does with each request; swapped per test. */
type Behaviour = "cloudflare" | "error-500" | "error-503-claiming-success" | "never-answer" | "not-json";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

/** A local stand-in for Cloudflare's siteverify, answering the way its documentation says. */
function fakeSiteverify() {
  const received: Received[] = [];
  let behaviour: Behaviour = "cloudflare";
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const contentType = req.headers["content-type"];
    // Cloudflare accepts both encodings; so does the fake.
    const fields: Record<string, string> = contentType?.startsWith("application/json")
      ? (JSON.parse(raw) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(raw));
    received.push({ contentType, fields });
    if (behaviour === "never-answer") return;
    if (behaviour === "error-500") {
      res.writeHead(500, { "content-type": "text/html" }).end("<h1>Internal Server Error</h1>");
      return;
    }
    if (behaviour === "error-503-claiming-success") {
      res.writeHead(503, { "content-type": "application/json" }).end('{"success":true,"error-codes":[]}');
      return;
    }
    if (behaviour === "not-json") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>challenge page</html>");
      return;
    }
    const answer =
      fields.secret !== SECRET
        ? { success: false, "error-codes": ["invalid-input-secret"] }
        : fields.response === GOOD_TOKEN
          ? {
              success: true,
              "error-codes": [],
              challenge_ts: new Date().toISOString(),
              hostname: "localhost",
              action: "signup",
            }
          : { success: false, "error-codes": ["invalid-input-response"] };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  return {
    server,
    received,
    set behaviour(value: Behaviour) {
      behaviour = value;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      return `http://127.0.0.1:${port}/turnstile/v0/siteverify`;
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

describe("Turnstile bot check", () => {
  const fake = fakeSiteverify();
  let verifyUrl = "";

  beforeAll(async () => {
    verifyUrl = await fake.listen();
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.behaviour = "cloudflare";
    fake.received.length = 0;
  });

  const turnstile = (overrides: { secretKey?: string; timeoutMs?: number; verifyUrl?: string } = {}) =>
    new TurnstileBotCheck({ secretKey: SECRET, verifyUrl, ...overrides });

  it("accepts a token siteverify accepts, sending the secret, token and visitor address form-encoded", async () => {
    const result = await turnstile().verify(GOOD_TOKEN, "203.0.113.7");
    expect(result).toEqual({ success: true, errorCodes: [] });
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(fake.received[0]?.fields).toEqual({
      secret: SECRET,
      response: GOOD_TOKEN,
      remoteip: "203.0.113.7",
    });
  });

  it("leaves remoteip out when the address is unknown", async () => {
    await turnstile().verify(GOOD_TOKEN);
    expect(fake.received[0]?.fields).toEqual({ secret: SECRET, response: GOOD_TOKEN });
  });

  it("refuses a token siteverify refuses, passing its error codes on", async () => {
    const result = await turnstile().verify("forged-token", "203.0.113.7");
    expect(result).toEqual({ success: false, errorCodes: ["invalid-input-response"] });
  });

  it("refuses everything when the secret is wrong", async () => {
    const result = await turnstile({ secretKey: "wrong-secret" }).verify(GOOD_TOKEN);
    expect(result).toEqual({ success: false, errorCodes: ["invalid-input-secret"] });
  });

  it("refuses an empty or oversized token without calling siteverify", async () => {
    expect(await turnstile().verify("")).toEqual({ success: false, errorCodes: ["missing-input-response"] });
    expect(await turnstile().verify("x".repeat(2049))).toEqual({
      success: false,
      errorCodes: ["invalid-input-response"],
    });
    expect(fake.received).toHaveLength(0);
    // The limit itself is a valid length: it reaches siteverify (which refuses this one).
    await turnstile().verify("x".repeat(2048));
    expect(fake.received).toHaveLength(1);
  });

  it("fails closed on a 500 answer", async () => {
    fake.behaviour = "error-500";
    expect(await turnstile().verify(GOOD_TOKEN)).toEqual({ success: false, errorCodes: ["internal-error"] });
    expect(fake.received).toHaveLength(1);
  });

  it("fails closed on an error status even when its body claims success", async () => {
    fake.behaviour = "error-503-claiming-success";
    expect(await turnstile().verify(GOOD_TOKEN)).toEqual({ success: false, errorCodes: ["internal-error"] });
  });

  it("fails closed on a 200 answer that is not siteverify's JSON", async () => {
    fake.behaviour = "not-json";
    expect(await turnstile().verify(GOOD_TOKEN)).toEqual({ success: false, errorCodes: ["internal-error"] });
  });

  it("fails closed when siteverify never answers, after the timeout", async () => {
    fake.behaviour = "never-answer";
    const started = Date.now();
    const result = await turnstile({ timeoutMs: 200 }).verify(GOOD_TOKEN);
    expect(result).toEqual({ success: false, errorCodes: ["internal-error"] });
    expect(fake.received).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("fails closed when nothing listens at the address", async () => {
    const closed = fakeSiteverify();
    const url = await closed.listen();
    await closed.close();
    expect(await turnstile({ verifyUrl: url }).verify(GOOD_TOKEN)).toEqual({
      success: false,
      errorCodes: ["internal-error"],
    });
  });
});

describe("sandbox bot check", () => {
  const sandbox: BotCheck = new SandboxBotCheck();

  it("says it is the sandbox", () => {
    expect(sandbox.kind).toBe("sandbox");
  });

  it("accepts any non-empty token but the failure token", async () => {
    expect(await sandbox.verify("anything", "203.0.113.7")).toEqual({ success: true, errorCodes: [] });
    expect((await sandbox.verify(SANDBOX_FAIL_TOKEN)).success).toBe(false);
    expect(SANDBOX_FAIL_TOKEN).toBe("sandbox-fail");
    expect((await sandbox.verify("")).success).toBe(false);
  });
});

describe("bot-check configuration", () => {
  it("defaults to the sandbox and Cloudflare's address", () => {
    const env = botCheckEnvSchema.parse({});
    expect(env.BOT_CHECK_PROVIDER).toBe("sandbox");
    expect(env.TURNSTILE_VERIFY_URL).toBe(TURNSTILE_VERIFY_URL);
    expect(TURNSTILE_VERIFY_URL).toBe("https://challenges.cloudflare.com/turnstile/v0/siteverify");
    expect(createBotCheck(env).kind).toBe("sandbox");
  });

  it("requires the secret and site keys for Turnstile, naming each missing one", () => {
    const result = botCheckEnvSchema.safeParse({ BOT_CHECK_PROVIDER: "turnstile" });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["TURNSTILE_SECRET_KEY", "TURNSTILE_SITE_KEY"]));
    const secretOnly = botCheckEnvSchema.safeParse({
      BOT_CHECK_PROVIDER: "turnstile",
      TURNSTILE_SECRET_KEY: "s",
    });
    expect(secretOnly.error?.issues.map((i) => i.path.join("."))).toEqual(["TURNSTILE_SITE_KEY"]);
  });

  it("refuses an unknown provider and a verify URL that is not http(s)", () => {
    expect(botCheckEnvSchema.safeParse({ BOT_CHECK_PROVIDER: "recaptcha" }).success).toBe(false);
    expect(botCheckEnvSchema.safeParse({ TURNSTILE_VERIFY_URL: "not a url" }).success).toBe(false);
    expect(botCheckEnvSchema.safeParse({ TURNSTILE_VERIFY_URL: "file:///etc/passwd" }).success).toBe(false);
  });

  it("builds a Turnstile verifier from a complete environment", () => {
    const env = botCheckEnvSchema.parse({
      BOT_CHECK_PROVIDER: "turnstile",
      TURNSTILE_SECRET_KEY: "secret",
      TURNSTILE_SITE_KEY: "site",
    });
    expect(createBotCheck(env).kind).toBe("turnstile");
  });
});

describe("production guard", () => {
  const providers = [
    { name: "bot-check", kind: "sandbox" },
    { name: "payments", kind: "stripe" },
    { name: "mail", kind: "outbox", sandbox: true },
  ];

  it("refuses to start in production with sandbox providers, naming each", () => {
    let error: unknown;
    try {
      assertProductionProviders({ nodeEnv: "production", allowSandbox: false, providers });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SandboxInProductionError);
    const message = (error as Error).message;
    expect(message).toContain("bot-check");
    expect(message).toContain("mail");
    expect(message).not.toContain("payments");
  });

  it("lets production start when allowed explicitly or when every provider is real", () => {
    expect(() =>
      assertProductionProviders({ nodeEnv: "production", allowSandbox: true, providers }),
    ).not.toThrow();
    expect(() =>
      assertProductionProviders({
        nodeEnv: "production",
        allowSandbox: false,
        providers: [{ name: "bot-check", kind: "turnstile" }],
      }),
    ).not.toThrow();
  });

  it("does not care outside production", () => {
    for (const nodeEnv of ["development", "test"]) {
      expect(() => assertProductionProviders({ nodeEnv, allowSandbox: false, providers })).not.toThrow();
    }
  });
});
