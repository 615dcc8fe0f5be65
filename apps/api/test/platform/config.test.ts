import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { SandboxInProductionError } from "../../src/providers/production-guard.ts";
import { TEST_APP_SECRET, TEST_INVOICE_SELLER, testConfig, testDatabase } from "../support/app.ts";

describe("configuration", () => {
  it("has defaults for every variable but the secret", () => {
    const config = loadConfig({ APP_SECRET: TEST_APP_SECRET });
    expect(config.API_PORT).toBe(4000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe("./data");
    expect(config.rules.platformFeeBps).toBe(1000);
    expect(config.rules.holdDays).toBe(7);
    expect(config.rules.affiliateCommissionBps).toBe(2000);
    expect(config.rules.payoutMinimumMinor).toBe(1000);
    expect(config.cookieSecure).toBe(false);
    expect(config.DEV_ROUTES).toBe(false);
    expect(config.docsEnabled).toBe(true);
  });

  it.each(["development", "test", "production"])(
    "refuses to start without APP_SECRET in %s, saying how to get one",
    (NODE_ENV) => {
      expect(() => loadConfig({ NODE_ENV })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV })).toThrow(
        /APP_SECRET: required.*`npm start` makes one.*\n.*openssl rand/,
      );
      expect(() => loadConfig({ NODE_ENV, APP_SECRET: "short" })).toThrow(/APP_SECRET/);
    },
  );

  it("keeps no fallback secret: the configured one is the one used", () => {
    expect(loadConfig({ APP_SECRET: TEST_APP_SECRET }).appSecret).toBe(TEST_APP_SECRET);
    expect(testConfig().appSecret).toBe(TEST_APP_SECRET);
    expect(TEST_APP_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("stops with a message naming each bad variable", () => {
    let error: unknown;
    try {
      loadConfig({ API_PORT: "not-a-port", PLATFORM_FEE_BPS: "-5", WEB_ORIGIN: "nope" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("API_PORT");
    expect(message).toContain("PLATFORM_FEE_BPS");
    expect(message).toContain("WEB_ORIGIN");
  });

  it("refuses production without the invoices' supplier, naming each missing setting (issue 22)", () => {
    const base = { NODE_ENV: "production", APP_SECRET: TEST_APP_SECRET };
    expect(() => loadConfig(base)).toThrow(
      /INVOICE_SELLER_NAME: required in production[\s\S]*INVOICE_SELLER_ADDRESS[\s\S]*INVOICE_SELLER_VAT_NUMBER/,
    );
    const { INVOICE_SELLER_VAT_NUMBER: _, ...noVat } = TEST_INVOICE_SELLER;
    expect(() => loadConfig({ ...base, ...noVat })).toThrow(
      /^(?![\s\S]*INVOICE_SELLER_NAME)[\s\S]*INVOICE_SELLER_VAT_NUMBER/,
    );
    expect(loadConfig({ ...base, ...TEST_INVOICE_SELLER }).INVOICE_SELLER_NAME).toBe("Salelink Test SAS");
    // Elsewhere the invoices say they are a sandbox's.
    expect(() => loadConfig({ NODE_ENV: "development", APP_SECRET: TEST_APP_SECRET })).not.toThrow();
  });

  it("treats empty variables as unset and secures cookies in production", () => {
    const config = loadConfig({
      DATABASE_URL: "",
      NODE_ENV: "production",
      ...TEST_INVOICE_SELLER,
      APP_SECRET: TEST_APP_SECRET,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.cookieSecure).toBe(true);
    expect(
      loadConfig({
        NODE_ENV: "production",
        ...TEST_INVOICE_SELLER,
        APP_SECRET: TEST_APP_SECRET,
        COOKIE_SECURE: "false",
      }).cookieSecure,
    ).toBe(false);
  });
});

describe("the production guard", () => {
  const stripePayments = {
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
  };
  const stripePayouts = {
    PAYOUT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_y",
  };
  const production = { NODE_ENV: "production", ...TEST_INVOICE_SELLER, ALLOW_SANDBOX_PROVIDERS: "true" };

  let database: Awaited<ReturnType<typeof testDatabase>> | undefined;
  afterAll(() => database?.close());

  async function startUp(overrides: Record<string, string>): Promise<string> {
    database ??= await testDatabase();
    try {
      const app = await buildApp({ config: testConfig(overrides), db: database.db });
      await app.close();
      return "started";
    } catch (error) {
      if (error instanceof SandboxInProductionError) return error.message;
      throw error;
    }
  }

  it("refuses sandbox payments beside real payouts, even with sandboxes allowed, naming the variables", async () => {
    for (const payouts of [{}, stripePayouts]) {
      const refusal = await startUp({ ...production, ...payouts });
      expect(refusal).toMatch(/PAYMENT_PROVIDER=sandbox/);
      expect(refusal).toMatch(/PAYOUT_PROVIDER=(manual|stripe)/);
    }
    expect(await startUp({ ...production, ...stripePayments })).toBe("started");
    // Outside production the sandbox pair is the demo: nothing real is paid there.
    expect(await startUp({})).toBe("started");
  });
});

describe("npm start's APP_SECRET (scripts/app-secret.mjs)", () => {
  const script = path.resolve(import.meta.dirname, "../../../../scripts/app-secret.mjs");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "salelink-app-secret-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Runs the start script's helper in its own Node process, as `npm start` does. */
  function keep(): { secret?: string; created?: boolean; error?: string } {
    const code = `import(${JSON.stringify(script)}).then((m) => {
      try { const { secret, created } = m.loadOrCreateAppSecret(${JSON.stringify(dataDir)}); console.log(JSON.stringify({ secret, created })); }
      catch (e) { console.log(JSON.stringify({ error: e.message })); }
    });`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    return JSON.parse(run.stdout);
  }

  it("makes a random one on first run, mode 0600, and reuses it", () => {
    const first = keep();
    expect(first.created).toBe(true);
    expect(first.secret?.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, "app-secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ APP_SECRET: first.secret }).appSecret).toBe(first.secret);
    const second = keep();
    expect(second).toEqual({ secret: first.secret, created: false });
  });

  it("refuses a file others can read, and one too short to be a secret", () => {
    const file = path.join(dataDir, "app-secret");
    chmodSync(file, 0o644);
    expect(keep().error).toMatch(/readable or writable by others \(mode 0644\).*chmod 600/);
    writeFileSync(file, "short\n", { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(keep().error).toMatch(/fewer than 32 characters/);
  });
});
