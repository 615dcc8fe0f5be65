import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("configuration", () => {
  it("has defaults for every variable", () => {
    const config = loadConfig({});
    expect(config.API_PORT).toBe(4000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe("./data");
    expect(config.rules.platformFeeBps).toBe(1000);
    expect(config.rules.holdDays).toBe(7);
    expect(config.rules.affiliateCommissionBps).toBe(2000);
    expect(config.rules.payoutMinimumMinor).toBe(1000);
    expect(config.cookieSecure).toBe(false);
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

  it("treats empty variables as unset and secures cookies in production", () => {
    const config = loadConfig({ DATABASE_URL: "", NODE_ENV: "production", APP_SECRET: "x".repeat(32) });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.cookieSecure).toBe(true);
    expect(
      loadConfig({ NODE_ENV: "production", APP_SECRET: "x".repeat(32), COOKIE_SECURE: "false" }).cookieSecure,
    ).toBe(false);
  });
});
