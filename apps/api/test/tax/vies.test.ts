import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { SandboxInProductionError } from "../../src/providers/production-guard.ts";
import {
  createViesProvider,
  SandboxViesProvider,
  ViesRestProvider,
  ViesUnavailableError,
  viesEnvSchema,
} from "../../src/providers/vies/index.ts";
import { TEST_APP_SECRET, testConfig, testDatabase } from "../support/app.ts";
import { type FakeVies, startFakeVies } from "../support/fake-vies.ts";

let fake: FakeVies;
beforeAll(async () => {
  fake = await startFakeVies();
  fake.register("DE136695976", null);
  fake.register("FR40303265045", { name: "SARL EXEMPLE", address: "1 RUE DE LA PAIX\n75002 PARIS" });
  fake.register("EL094259216", { name: "ΕΤΑΙΡΕΙΑ ΑΕ", address: "ΑΘΗΝΑ" });
});
afterAll(async () => {
  await fake.close();
});

const vies = (options: ConstructorParameters<typeof ViesRestProvider>[0] = {}) =>
  new ViesRestProvider({ apiUrl: fake.url, timeoutMs: 2000, ...options });

/** The error a check throws, for its code. */
async function unavailable(check: Promise<unknown>): Promise<ViesUnavailableError> {
  const error = await check.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ViesUnavailableError);
  return error as ViesUnavailableError;
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("the VIES REST adapter", () => {
  it("posts the country and the number without its prefix, and reads a valid answer", async () => {
    const before = Date.now();
    const check = await vies().checkVatNumber("FR", "FR 403 032 650 45");
    expect(check).toMatchObject({
      valid: true,
      name: "SARL EXEMPLE",
      address: "1 RUE DE LA PAIX\n75002 PARIS",
    });
    expect(check.checkedAt.getTime()).toBeGreaterThanOrEqual(before);
    // Without a requester VIES gives no consultation number.
    expect(check.requestId).toBeUndefined();
    const seen = fake.requests.at(-1);
    expect(seen).toMatchObject({
      method: "POST",
      path: "/check-vat-number",
      contentType: "application/json",
    });
    expect(seen?.body).toEqual({ countryCode: "FR", vatNumber: "40303265045" });
  });

  it("sends Greece as EL, with or without the number's prefix", async () => {
    for (const number of ["094259216", "EL094259216", "GR094259216"]) {
      expect(await vies().checkVatNumber("GR", number)).toMatchObject({ valid: true, name: "ΕΤΑΙΡΕΙΑ ΑΕ" });
      expect(fake.requests.at(-1)?.body).toEqual({ countryCode: "EL", vatNumber: "094259216" });
    }
  });

  it("leaves out the name and address a member state does not disclose (---)", async () => {
    const check = await vies().checkVatNumber("DE", "136695976");
    expect(check.valid).toBe(true);
    expect(check).not.toHaveProperty("name");
    expect(check).not.toHaveProperty("address");
  });

  it("answers invalid for a number the register does not know, and for VIES's INVALID_INPUT", async () => {
    expect(await vies().checkVatNumber("DE", "DE111110000")).toEqual({
      valid: false,
      checkedAt: expect.any(Date),
    });
    fake.failNext(400, { actionSucceed: false, errorWrappers: [{ error: "INVALID_INPUT", message: "bad" }] });
    expect((await vies().checkVatNumber("DE", "136695976")).valid).toBe(false);
  });

  it("with the platform's own VAT number as requester, keeps VIES's consultation number", async () => {
    const check = await vies({ requesterVatNumber: "BE0411905847" }).checkVatNumber("FR", "40303265045");
    expect(check.requestId).toMatch(/^WAPI[0-9A-F-]{12}$/);
    expect(fake.requests.at(-1)?.body).toEqual({
      countryCode: "FR",
      vatNumber: "40303265045",
      requesterMemberStateCode: "BE",
      requesterNumber: "0411905847",
    });
    expect(() => vies({ requesterVatNumber: "GB980780684" })).toThrow(/EU VAT number/);
  });

  it("a member state down is unavailable, never invalid", async () => {
    fake.setDown("FR");
    try {
      const error = await unavailable(vies().checkVatNumber("FR", "40303265045"));
      expect(error.code).toBe("MS_UNAVAILABLE");
    } finally {
      fake.setDown("FR", false);
    }
    // The same refusal with HTTP 200, and the GET endpoint's userError, are unavailable too.
    fake.failNext(200, { actionSucceed: false, errorWrappers: [{ error: "GLOBAL_MAX_CONCURRENT_REQ" }] });
    expect((await unavailable(vies().checkVatNumber("FR", "40303265045"))).code).toBe(
      "GLOBAL_MAX_CONCURRENT_REQ",
    );
    fake.failNext(200, { isValid: false, valid: false, userError: "MS_UNAVAILABLE" });
    expect((await unavailable(vies().checkVatNumber("FR", "40303265045"))).code).toBe("MS_UNAVAILABLE");
  });

  it("a 5xx, a proxy's page or an unreadable answer is unavailable", async () => {
    fake.failNext(503, "<html>Service Unavailable</html>", true);
    expect((await unavailable(vies().checkVatNumber("DE", "136695976"))).code).toBe("HTTP_503");
    fake.failNext(200, "not json", true);
    expect((await unavailable(vies().checkVatNumber("DE", "136695976"))).code).toBe("MALFORMED_RESPONSE");
    fake.failNext(200, { valid: "yes" });
    expect((await unavailable(vies().checkVatNumber("DE", "136695976"))).code).toBe("MALFORMED_RESPONSE");
  });

  it("a slow VIES times out, and an unreachable one is unavailable", async () => {
    fake.delayNext(1500);
    const started = Date.now();
    const error = await unavailable(vies({ timeoutMs: 200 }).checkVatNumber("DE", "136695976"));
    expect(error.code).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1400);
    const down = new ViesRestProvider({ apiUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 2000 });
    expect((await unavailable(down.checkVatNumber("DE", "136695976"))).code).toBe("NETWORK");
  });

  it("asks about EU numbers only", async () => {
    await expect(vies().checkVatNumber("GB", "980780684")).rejects.toThrow(RangeError);
    await expect(vies().checkVatNumber("US", "123")).rejects.toThrow(RangeError);
  });
});

describe("the VIES sandbox", () => {
  const sandbox = new SandboxViesProvider();

  it("says valid to a well-formed number, with answers labelled as the sandbox's", async () => {
    expect(await sandbox.checkVatNumber("DE", "DE136695976")).toMatchObject({
      valid: true,
      name: "Sandbox business DE136695976",
      address: expect.stringContaining("Sandbox"),
    });
    expect((await sandbox.checkVatNumber("GR", "094259216")).valid).toBe(true);
  });

  it("says invalid to a malformed number, another country's, or one ending in 0000", async () => {
    expect((await sandbox.checkVatNumber("DE", "DE136695977")).valid).toBe(false);
    expect((await sandbox.checkVatNumber("FR", "DE136695976")).valid).toBe(false);
    expect(await sandbox.checkVatNumber("DE", "DE111110000")).toEqual({
      valid: false,
      checkedAt: expect.any(Date),
    });
    expect((await sandbox.checkVatNumber("FR", "FR11111370000")).valid).toBe(false);
  });

  it("finds the member state down for a number ending in 9999", async () => {
    const error = await unavailable(sandbox.checkVatNumber("DE", "DE111139999"));
    expect(error.code).toBe("MS_UNAVAILABLE");
  });
});

describe("VIES configuration", () => {
  it("defaults to the sandbox, and builds the REST adapter with VIES_PROVIDER=vies", () => {
    const config = loadConfig({ APP_SECRET: TEST_APP_SECRET });
    expect(config.vies).toEqual({
      VIES_PROVIDER: "sandbox",
      VIES_API_URL: "https://ec.europa.eu/taxation_customs/vies/rest-api",
      VIES_TIMEOUT_MS: 8000,
    });
    expect(createViesProvider(config.vies).kind).toBe("sandbox");
    const real = viesEnvSchema.parse({ VIES_PROVIDER: "vies", VIES_API_URL: fake.url });
    expect(createViesProvider(real)).toBeInstanceOf(ViesRestProvider);
    expect(() => loadConfig({ APP_SECRET: TEST_APP_SECRET, VIES_PROVIDER: "soap" })).toThrow(/VIES_PROVIDER/);
    expect(() => loadConfig({ APP_SECRET: TEST_APP_SECRET, VIES_API_URL: "ftp://x" })).toThrow(ConfigError);
  });

  it("reads VAT_REGISTERED_OUTSIDE_EU as a list of GB, NO, CH, IS", () => {
    expect(loadConfig({ APP_SECRET: TEST_APP_SECRET }).VAT_REGISTERED_OUTSIDE_EU).toEqual([]);
    expect(
      loadConfig({ APP_SECRET: TEST_APP_SECRET, VAT_REGISTERED_OUTSIDE_EU: " gb, NO ,,CH" })
        .VAT_REGISTERED_OUTSIDE_EU,
    ).toEqual(["GB", "NO", "CH"]);
    expect(() => loadConfig({ APP_SECRET: TEST_APP_SECRET, VAT_REGISTERED_OUTSIDE_EU: "GB,FR" })).toThrow(
      /VAT_REGISTERED_OUTSIDE_EU/,
    );
  });

  describe("in production", () => {
    let database: Awaited<ReturnType<typeof testDatabase>> | undefined;
    afterAll(() => database?.close());

    async function startUp(overrides: Record<string, string>): Promise<string> {
      database ??= await testDatabase();
      try {
        const app = await buildApp({
          config: testConfig({ NODE_ENV: "production", ...overrides }),
          db: database.db,
        });
        await app.close();
        return "started";
      } catch (error) {
        if (error instanceof SandboxInProductionError) return error.message;
        throw error;
      }
    }

    it("names the VIES sandbox among the sandboxes it refuses, not the real VIES", async () => {
      expect(await startUp({})).toContain("vies (sandbox)");
      expect(await startUp({ VIES_PROVIDER: "vies" })).not.toContain("vies");
    });
  });
});
