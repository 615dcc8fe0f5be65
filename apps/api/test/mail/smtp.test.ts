import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import pino from "pino";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { jobs } from "../../src/db/schema/jobs.ts";
import { mailOutbox } from "../../src/db/schema/mail.ts";
import { JobRegistry, Worker } from "../../src/jobs/index.ts";
import { queueMail, registerMailJobs } from "../../src/modules/mail/jobs.ts";
import { createMailProvider, type MailProvider, mailEnvSchema } from "../../src/providers/mail/index.ts";
import { testDatabase } from "../support/app.ts";

const USER = "mailer";
const PASSWORD = "smtp-test-password";

interface Received {
  from: string | false;
  to: string[];
  user: string | undefined;
  raw: Buffer;
}

/** A real SMTP server on a free local port, with password auth, keeping what it receives. */
async function startSmtpServer(overrides: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    // Plain TCP on purpose: the test is about our client, not certificates.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom === false ? false : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === "string" ? session.user : undefined,
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
    ...overrides,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, received };
}

function smtpProvider(port: number, password = PASSWORD): MailProvider {
  const env = mailEnvSchema.parse({
    MAIL_PROVIDER: "smtp",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(port),
    SMTP_USER: USER,
    SMTP_PASSWORD: password,
    MAIL_FROM: "Salelink <no-reply@salelink.test>",
  });
  return createMailProvider(env, database.db);
}

function workerFor(provider: MailProvider) {
  const registry = new JobRegistry();
  registerMailJobs(registry, { mail: provider });
  return new Worker({ db: database.db, registry, logger: pino({ level: "silent" }) });
}

const reset = {
  to: "ana@example.test",
  template: "reset-password",
  locale: "fr",
  params: { url: "https://app.salelink.test/reset?token=s3cret-reset-token", expiresInHours: 2 },
} as const;

let database: Database;

beforeAll(async () => {
  database = await testDatabase();
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await database.db.delete(jobs);
  await database.db.delete(mailOutbox);
});

describe("the SMTP provider", () => {
  it("sends a queued e-mail to a real SMTP server, authenticated, once", async () => {
    const smtp = await startSmtpServer();
    const provider = smtpProvider(smtp.port);
    expect(provider.kind).toBe("smtp");
    const jobId = await queueMail(database.db, reset);

    const worker = workerFor(provider);
    expect(await worker.runDue()).toBe(1);
    expect(await worker.runDue()).toBe(0);

    expect(smtp.received).toHaveLength(1);
    const [envelope] = smtp.received;
    expect(envelope).toMatchObject({ from: "no-reply@salelink.test", to: ["ana@example.test"], user: USER });
    const mail = await simpleParser(envelope?.raw ?? "");
    expect(mail.from?.value).toEqual([{ address: "no-reply@salelink.test", name: "Salelink" }]);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value).toEqual([
      { address: "ana@example.test", name: "" },
    ]);
    expect(mail.subject).toBe("Réinitialisez votre mot de passe Salelink");
    expect(mail.text).toContain(reset.params.url);
    expect(mail.text).toContain("Ce lien expire dans 2 heures.");
    expect(mail.html).toContain(`href="${reset.params.url}"`);
    expect(mail.html).toContain('<html lang="fr">');
    // Derived from the job, so a resend after a crash carries the same Message-ID.
    expect(mail.messageId).toBe(`<mail-${jobId}@salelink.test>`);

    const [row] = await database.db.select().from(jobs);
    expect(row).toMatchObject({ status: "done", attempts: 1, lastError: null });
    // Nothing went to the outbox: SMTP sends, it does not store.
    expect(await database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("reschedules the job with the error when the server refuses the message, and marks nothing done", async () => {
    const smtp = await startSmtpServer({
      onRcptTo(address, _session, callback) {
        // Quoting the recipient, as real servers do.
        const refusal = new Error(`<${address.address}>: Mailbox temporarily unavailable`);
        callback(Object.assign(refusal, { responseCode: 451 }));
      },
    });
    await queueMail(database.db, reset);
    const before = Date.now();

    expect(await workerFor(smtpProvider(smtp.port)).runDue()).toBe(1);

    expect(smtp.received).toEqual([]);
    const [row] = await database.db.select().from(jobs);
    expect(row).toMatchObject({ status: "queued", attempts: 1, finishedAt: null, lockedBy: null });
    expect(row?.lastError).toMatch(/^Sending through smtp failed: .*451/);
    // The error names neither the recipient nor the link.
    expect(row?.lastError).not.toContain("ana@example.test");
    expect(row?.lastError).not.toContain("s3cret");
    expect(row?.runAt.getTime()).toBeGreaterThan(before);
    // Rolled back with the rest: the retry still has what it needs to send.
    expect(row?.payload).toMatchObject({ params: reset.params });
  });

  it("fails the same way on a wrong password", async () => {
    const smtp = await startSmtpServer();
    await queueMail(database.db, reset);
    await workerFor(smtpProvider(smtp.port, "wrong-password")).runDue();
    expect(smtp.received).toEqual([]);
    const [row] = await database.db.select().from(jobs);
    expect(row).toMatchObject({ status: "queued", attempts: 1, finishedAt: null });
    expect(row?.lastError).toMatch(/Sending through smtp failed: .*(auth|535)/i);
  });
});
