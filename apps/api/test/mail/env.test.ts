import { describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { createMailProvider, fromDomain, mailEnvSchema } from "../../src/providers/mail/index.ts";

/** Issue paths and messages, for asserting which variable a bad environment names. */
function issues(env: Record<string, string>): string[] {
  const result = mailEnvSchema.safeParse(env);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("the mail environment", () => {
  it("defaults to the outbox, port 587 without implicit TLS, and a Salelink sender", () => {
    expect(mailEnvSchema.parse({})).toEqual({
      MAIL_PROVIDER: "outbox",
      SMTP_PORT: 587,
      SMTP_SECURE: false,
      MAIL_FROM: "Salelink <no-reply@salelink.test>",
    });
  });

  it("reads an SMTP setup", () => {
    expect(
      mailEnvSchema.parse({
        MAIL_PROVIDER: "smtp",
        SMTP_HOST: "smtp.example.com",
        SMTP_PORT: "465",
        SMTP_SECURE: "true",
        SMTP_USER: "u",
        SMTP_PASSWORD: "p",
        MAIL_FROM: "no-reply@example.com",
      }),
    ).toMatchObject({
      MAIL_PROVIDER: "smtp",
      SMTP_PORT: 465,
      SMTP_SECURE: true,
      SMTP_HOST: "smtp.example.com",
    });
  });

  it("names the variable that is missing or wrong", () => {
    expect(issues({ MAIL_PROVIDER: "smtp" })).toEqual(["SMTP_HOST: required when MAIL_PROVIDER is smtp"]);
    expect(issues({ SMTP_USER: "u" })).toEqual(["SMTP_PASSWORD: required when SMTP_USER is set"]);
    expect(issues({ SMTP_PASSWORD: "p" })).toEqual(["SMTP_USER: required when SMTP_PASSWORD is set"]);
    expect(issues({ MAIL_PROVIDER: "sendgrid" })[0]).toMatch(/^MAIL_PROVIDER: /);
    expect(issues({ SMTP_PORT: "70000" })[0]).toMatch(/^SMTP_PORT: /);
    expect(issues({ SMTP_SECURE: "maybe" })[0]).toMatch(/^SMTP_SECURE: /);
    expect(issues({ MAIL_FROM: "Salelink" })[0]).toMatch(/^MAIL_FROM: /);
  });

  it("finds the sender's domain, for Message-IDs", () => {
    expect(fromDomain("Salelink <no-reply@salelink.test>")).toBe("salelink.test");
    expect(fromDomain("billing@mail.example.com")).toBe("mail.example.com");
    expect(fromDomain("Salelink")).toBeNull();
    expect(fromDomain("a@localhost")).toBeNull();
  });

  it("creates the provider MAIL_PROVIDER names", () => {
    // Neither provider touches the database when created.
    const db = {} as Database["db"];
    expect(createMailProvider(mailEnvSchema.parse({}), db).kind).toBe("outbox");
    const smtp = mailEnvSchema.parse({ MAIL_PROVIDER: "smtp", SMTP_HOST: "127.0.0.1" });
    expect(createMailProvider(smtp, db).kind).toBe("smtp");
  });
});
