import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { redactUrl } from "../../src/lib/redact.ts";
import { insertAccount, PASSWORD } from "../support/accounts.ts";
import { testConfig, testDatabase } from "../support/app.ts";

describe("secrets never reach the logs", () => {
  it("hides tokens in paths and secret query parameters", () => {
    expect(redactUrl("/order/AbCdEfGhIjKlMnOpQrStUvWxYz012345")).toBe("/order/[redacted]");
    expect(redactUrl("/blog?ref=abcd&page=2")).toBe("/blog?ref=%5Bredacted%5D&page=2");
    expect(redactUrl("/maintenance")).toBe("/maintenance");
  });

  it("logs no password, cookie or session token", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const database = await testDatabase();
    const config = testConfig({ LOG_LEVEL: "trace" });
    const app = await buildApp({ config, db: database.db, logStream: stream });
    try {
      const user = await insertAccount(database, { onboarded: true });
      const res = await app.inject({
        method: "POST",
        url: "/auth/signin",
        payload: { email: user.email, password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      const token = res.cookies[0]?.value ?? "";
      expect(token.length).toBeGreaterThan(30);
      await app.inject({ method: "GET", url: "/profile", headers: { cookie: `sid=${token}` } });
      const log = lines.join("\n");
      expect(log.length).toBeGreaterThan(0);
      expect(log).not.toContain(PASSWORD);
      expect(log).not.toContain(token);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
