import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readinessResponseSchema } from "@salelink/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { jobs } from "../../src/db/schema/index.ts";
import { clickCounts } from "../../src/modules/affiliates/clicks/queries.ts";
import { revalidateJob } from "../../src/modules/catalogue/revalidate.ts";
import { insertAccount, insertCampaign } from "../support/accounts.ts";
import { dbKind, TEST_APP_SECRET, TEST_INVOICE_SELLER, testDatabase } from "../support/app.ts";

/*
 * The real server, spawned as in production, shut down by SIGTERM with work in every stage:
 * requests in flight, clicks in the buffer, a job running, a job claimed behind it (PGlite runs one
 * transaction at a time) or a lease left over (PostgreSQL), and readiness probed during the drain.
 */

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/* The machine running the suite may be loaded (start-up alone can take a minute): the bounds are wide. */
const DRAIN_MS = 3000;
const browser = (n: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.${n} Safari/537.36`;

interface LogLine {
  msg?: string;
  worker?: string;
}

/**
 * The web app's revalidate route, answering when told to or after 4 s, whichever comes first (the
 * job gives up at 5 s): a job that is still running when the drain ends.
 */
function slowWebApp(options: { autoAnswerMs: number | null } = { autoAnswerMs: 4000 }) {
  const held: ServerResponse[] = [];
  let open = false;
  let received = 0;
  const server: Server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    received += 1;
    if (open) res.writeHead(200).end("{}");
    else {
      held.push(res);
      if (options.autoAnswerMs !== null) {
        setTimeout(() => {
          if (!res.headersSent) res.writeHead(200).end("{}");
        }, options.autoAnswerMs).unref();
      }
    }
  });
  return {
    server,
    received: () => received,
    release() {
      open = true;
      for (const res of held.splice(0)) res.writeHead(200).end("{}");
    },
  };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** A database for one spawned server; PGlite's is closed (one process at a time) and reopened after. */
async function prepareDatabase(): Promise<{
  database: Database;
  env: Record<string, string>;
  reopen: () => Promise<Database>;
}> {
  if (dbKind === "postgres") {
    const created = await testDatabase();
    cleanups.push(() => created.close());
    return { database: created, env: { DATABASE_URL: created.url ?? "" }, reopen: async () => created };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), "salelink-shutdown-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return {
    database: await openDatabase({ dataDir }),
    env: { DATA_DIR: dataDir },
    reopen: () => openDatabase({ dataDir }),
  };
}

async function startWebApp(web: ReturnType<typeof slowWebApp>): Promise<number> {
  await new Promise<void>((resolve) => web.server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => web.server.close(resolve)));
  return (web.server.address() as { port: number }).port;
}

/** `node --import tsx src/server.ts` with its own environment only; answers once it listens. */
async function spawnServer(overrides: Record<string, string>) {
  const redisUrl = process.env.REDIS_URL ? new URL(process.env.REDIS_URL) : undefined;
  // A database index of its own: the server's default key prefix must not meet other tests' keys.
  if (redisUrl) redisUrl.pathname = "/9";
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: "test",
    APP_SECRET: TEST_APP_SECRET,
    LOG_LEVEL: "info",
    API_HOST: "127.0.0.1",
    API_PORT: "0",
    SEED_DEMO: "false",
    METRICS_PORT: "off",
    JOBS_POLL_MS: "50",
    ...(redisUrl ? { REDIS_URL: redisUrl.toString() } : {}),
    ...overrides,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], { cwd: apiDir, env });
  children.push(child);
  const logs: LogLine[] = [];
  let output = "";
  let pending = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      output += `${line}\n`;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line.
      }
    }
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const listening = await until(
    "the server to listen",
    () => {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
      return logs.find((l) => l.msg?.startsWith("Server listening at"));
    },
    180_000,
  );
  const base = (listening.msg ?? "").replace("Server listening at ", "");
  return {
    child,
    logs,
    base,
    port: Number(new URL(base).port),
    output: () => output,
    /** The exit code, or "hung" past `ms`. */
    exit: (ms: number) => Promise.race([exited, new Promise((r) => setTimeout(() => r("hung"), ms))]),
  };
}

describe(`graceful shutdown of the real server (${dbKind})`, () => {
  it("drains, finishes requests, flushes clicks, hands jobs back and exits 0", {
    timeout: 300_000,
  }, async () => {
    const prepared = await prepareDatabase();
    let database = prepared.database;
    const owner = await insertAccount(database);
    const campaign = await insertCampaign(database, owner.id);
    const now = Date.now();
    const first = await revalidateJob.enqueue(
      database.db,
      { tags: ["link:first"] },
      { runAt: new Date(now - 2000) },
    );
    const second = await revalidateJob.enqueue(
      database.db,
      { tags: ["link:second"] },
      { runAt: new Date(now - 1000) },
    );
    if (!first || !second) throw new Error("jobs not queued");
    if (dbKind === "pglite") await database.close();

    const web = slowWebApp();
    const webPort = await startWebApp(web);
    const { child, logs, base, port, output, exit } = await spawnServer({
      ...prepared.env,
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      SHUTDOWN_TIMEOUT_MS: "60000",
      // Clicks stay in the buffer until the shutdown's flush.
      CLICK_FLUSH_MS: "60000",
      // Ten visitors from one (loopback) address: all of them count.
      CLICK_ADDRESS_ALLOWANCE: "10",
      JOBS_CONCURRENCY: "2",
      WEB_REVALIDATE_URL: `http://127.0.0.1:${webPort}/api/revalidate`,
      WEB_REVALIDATE_SECRET: "s".repeat(32),
    });
    const workerId = (await until("the worker", () => logs.find((l) => l.msg === "jobs worker started")))
      .worker;
    // The first job is running: it waits on the web app, holding its transaction.
    await until("a job to run", () => (web.received() > 0 ? true : undefined));

    let leftover: string | undefined;
    if (dbKind === "postgres") {
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      // A lease this worker holds on a job it is not running (a failure record lost, say).
      const [row] = await database.db
        .insert(jobs)
        .values({
          kind: revalidateJob.kind,
          payload: { tags: ["link:leftover"] },
          runAt: new Date(Date.now() + 3_600_000),
          attempts: 1,
          lockedBy: `${workerId}#999`,
          lockedUntil: new Date(Date.now() + 3_600_000),
        })
        .returning({ id: jobs.id });
      leftover = row?.id;
    }

    const inFlight = [
      ...Array.from({ length: 10 }, (_, n) =>
        fetch(`${base}/campaigns/clicks/${campaign.token}`, {
          method: "PATCH",
          headers: { "content-type": "application/json", "user-agent": browser(n) },
          body: JSON.stringify({ token: campaign.token }),
        }),
      ),
      ...Array.from({ length: 10 }, () => fetch(`${base}/health`)),
    ];
    const signalledAt = Date.now();
    child.kill("SIGTERM");

    const during = await fetch(`${base}/health/ready`);
    expect(during.status).toBe(503);
    // Answered at all proves it came during the drain: past it the listener refuses connections.
    expect(readinessResponseSchema.parse(await during.json()).checks.accepting).toBe("failed");

    // The drain is over once the listener refuses connections.
    await until("the listener to close", async () => ((await portRefuses(port)) ? true : undefined));
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    web.release();

    const responses = await Promise.all(inFlight);
    expect(responses.map((r) => r.status).filter((s) => s < 200 || s > 299)).toEqual([]);
    expect(await exit(70_000), output()).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(60_000);
    expect(output()).toContain("shut down");

    if (dbKind === "pglite") database = await prepared.reopen();
    try {
      expect((await clickCounts(database.db, [campaign.id])).get(campaign.id)).toEqual({
        clicks: 10,
        botClicks: 0,
        filteredClicks: 0,
      });
      const rows = await database.db
        .select({ id: jobs.id, status: jobs.status, attempts: jobs.attempts, lockedBy: jobs.lockedBy })
        .from(jobs);
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(first)?.status).toBe("done");
      // Nothing is left leased: another instance could take every queued job at once.
      expect(rows.filter((r) => r.lockedBy !== null)).toEqual([]);
      if (dbKind === "pglite") {
        // Claimed with the first, it waited for PGlite's one connection: it ran before the drain
        // ended, or found the worker stopping and was handed back with its attempt uncounted
        // (jobs/shutdown.test.ts makes that case certain).
        const b = byId.get(second);
        if (b?.status !== "done") expect(b).toMatchObject({ status: "queued", attempts: 0 });
      } else {
        expect(byId.get(second)?.status).toBe("done");
        expect(byId.get(leftover ?? "")).toMatchObject({ status: "queued", attempts: 1, lockedBy: null });
        expect(output()).toContain("job leases released");
      }
    } finally {
      if (dbKind === "pglite") await database.close();
    }
  });

  it("exits 1 when the shutdown outlasts SHUTDOWN_TIMEOUT_MS", { timeout: 300_000 }, async () => {
    const prepared = await prepareDatabase();
    await revalidateJob.enqueue(prepared.database.db, { tags: ["link:stuck"] });
    if (dbKind === "pglite") await prepared.database.close();
    // Never answers: the job runs until its own 5 s timeout, and the worker waits for it.
    const web = slowWebApp({ autoAnswerMs: null });
    const webPort = await startWebApp(web);
    const { child, exit, output } = await spawnServer({
      ...prepared.env,
      SHUTDOWN_DRAIN_MS: "0",
      SHUTDOWN_TIMEOUT_MS: "1000",
      WEB_REVALIDATE_URL: `http://127.0.0.1:${webPort}/api/revalidate`,
      WEB_REVALIDATE_SECRET: "s".repeat(32),
    });
    await until("the job to run", () => (web.received() > 0 ? true : undefined));
    const signalledAt = Date.now();
    child.kill("SIGTERM");
    expect(await exit(30_000), output()).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(4000);
    expect(output()).toContain("shutdown took too long");
  });
});

describe("shutdown limits", () => {
  it("refuses a drain that does not fit in the hard limit", async () => {
    const { loadConfig } = await import("../../src/config.ts");
    expect(() =>
      loadConfig({ APP_SECRET: TEST_APP_SECRET, SHUTDOWN_DRAIN_MS: "5000", SHUTDOWN_TIMEOUT_MS: "5000" }),
    ).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(loadConfig({ NODE_ENV: "test", APP_SECRET: TEST_APP_SECRET }).shutdownDrainMs).toBe(0);
    expect(
      loadConfig({
        NODE_ENV: "production",
        ...TEST_INVOICE_SELLER,
        APP_SECRET: "x".repeat(32),
        ALLOW_SANDBOX_PROVIDERS: "true",
      }).shutdownDrainMs,
    ).toBe(5000);
  });
});
