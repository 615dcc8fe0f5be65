import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Currency, errorResponseSchema } from "@salelink/contracts";
import { bundleServer } from "../../bundle.mjs";
import {
  SANDBOX_SIGNATURE_HEADER,
  sandboxEvent,
  sandboxWebhookSecret,
  signPayload,
} from "../../src/providers/payments/index.ts";

/*
 * The real API as a child process, for the fault tests: built once per file the way production
 * builds it (build.mjs), started against a given database, and killed with SIGKILL whenever the
 * test decides. Plus the small tools those tests share: a seeded random source and an HTTP client
 * whose calls may die with the server.
 */

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The seed of this run: FAULT_SEED to replay one, else a fresh one (printed by the tests on failure). */
export function faultSeed(): number {
  const given = process.env.FAULT_SEED;
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) throw new Error(`FAULT_SEED must be an integer, got ${given}`);
    return seed;
  }
  return randomBytes(4).readUInt32BE(0);
}

/** mulberry32: small, fast and good enough to pick kill points reproducibly from a seed. */
export function seededRandom(seed: number): { next(): number; between(min: number, max: number): number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, between: (min, max) => Math.floor(min + next() * (max - min + 1)) };
}

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

export interface ServerBundle {
  /** Loads the server's packages, then starts the server when a line arrives on its stdin. */
  entry: string;
  remove(): Promise<void>;
}

/**
 * Bundles src/server.ts as build.mjs does (bundle.mjs) into a folder under
 * node_modules, where those packages resolve, with a warm-up entry beside it: loading the packages
 * takes most of a start on a busy machine, so the next process loads them while the current one
 * serves, and a restart only runs the server's own start-up.
 */
export async function buildServer(): Promise<ServerBundle> {
  const cacheDir = path.join(apiDir, "node_modules", ".cache");
  await mkdir(cacheDir, { recursive: true });
  const dir = await mkdtemp(path.join(cacheDir, "salelink-faults-"));
  const server = path.join(dir, "server.js");
  // No source map: the child's stack traces are not read, and the tests start it many times.
  const result = await bundleServer({ outfile: server, sourcemap: false, metafile: true });
  const packages = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path),
  );
  const entry = path.join(dir, "warm.mjs");
  await writeFile(
    entry,
    `await Promise.all(${JSON.stringify([...new Set(packages)])}.map((p) => import(p)));
// A line on stdin starts the server; stdin's end (the test gone, however it ended) ends the process.
process.stdin.once("data", () => import("./server.js"));
process.stdin.on("end", () => process.exit(0));
`,
  );
  await cp(path.join(apiDir, "src", "db", "migrations"), path.join(dir, "migrations"), { recursive: true });
  return { entry, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The secret the child runs with: the test signs the sandbox's webhooks with a key derived from it.
 * Random per test process, as testConfig's: no secret is a constant in the source.
 */
export const CHILD_APP_SECRET = randomBytes(32).toString("base64url");

export interface ApiProcessOptions {
  bundle: ServerBundle;
  databaseUrl: string;
  port: number;
  env?: Record<string, string>;
}

/** One API process after another on the same database and port: start, kill -9, start again. */
export class ApiProcess {
  private child: ChildProcess | undefined;
  /** The next process, its packages loaded, waiting for its start signal. */
  private spare: ChildProcess | undefined;
  private output = "";
  private dataDir: string | undefined;
  readonly baseUrl: string;

  constructor(private readonly options: ApiProcessOptions) {
    this.baseUrl = `http://127.0.0.1:${options.port}`;
  }

  /** What the processes printed (warnings and errors only), for a failure's message. */
  get log(): string {
    return this.output;
  }

  private spawnSpare(dataDir: string): ChildProcess {
    const child = spawn(process.execPath, [this.options.bundle.entry], {
      cwd: apiDir,
      // Only what the server needs: the suite's own DATABASE_URL and REDIS_URL stay out.
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "test",
        API_HOST: "127.0.0.1",
        API_PORT: String(this.options.port),
        DATABASE_URL: this.options.databaseUrl,
        DATABASE_POOL_SIZE: "10",
        DATA_DIR: dataDir,
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        APP_SECRET: CHILD_APP_SECRET,
        // The shop releases holds through /dev/holds/release (from 127.0.0.1).
        DEV_ROUTES: "true",
        // The operators approve each payout and mark it paid or failed (the shop's fourth part).
        PAYOUT_PROVIDER: "manual",
        SEED_DEMO: "false",
        LOG_LEVEL: "warn",
        JOBS_ENABLED: "true",
        JOBS_POLL_MS: "50",
        JOBS_CONCURRENCY: "4",
        // The shortest lease allowed: a killed process's jobs come back a second later.
        JOBS_LEASE_MS: "1000",
        RATE_LIMIT_SIGNIN_MAX: "10000",
        RATE_LIMIT_SIGNUP_MAX: "10000",
        RATE_LIMIT_PASSWORD_MAX: "10000",
        RATE_LIMIT_EMAIL_MAX: "10000",
        ...this.options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    return child;
  }

  /** Starts the server (the spare process, already warm, when there is one) and readies the next. */
  async start(): Promise<void> {
    if (this.running) throw new Error("already running");
    this.dataDir ??= await mkdtemp(path.join(tmpdir(), "salelink-faults-data-"));
    const child = this.spare ?? this.spawnSpare(this.dataDir);
    this.spare = undefined;
    this.child = child;
    child.stdin?.write("start\n");
    await this.waitReady(child);
    this.spare = this.spawnSpare(this.dataDir);
  }

  get running(): boolean {
    return this.child !== undefined && isAlive(this.child);
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (!isAlive(child)) throw new Error(`api exited (${child.exitCode}):\n${this.output}`);
      try {
        const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
        if (res.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(25);
    }
    throw new Error(`api not ready in 30 s:\n${this.output}`);
  }

  /** SIGKILL: no shutdown hook runs, open transactions and leases are left as they are. */
  async kill(): Promise<void> {
    await killNow(this.child);
  }

  /** Kills the server and the spare and removes the data folder; safe to call more than once. */
  async dispose(): Promise<void> {
    await Promise.all([killNow(this.child), killNow(this.spare)]);
    this.spare = undefined;
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
    this.dataDir = undefined;
  }
}

const isAlive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function killNow(child: ChildProcess | undefined): Promise<void> {
  if (!child || !isAlive(child)) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A call's answer, or `null` when the connection died first (the server was killed under it). */
export interface Answer {
  status: number;
  body: unknown;
}

export async function http(
  baseUrl: string,
  method: "GET" | "POST",
  url: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer | null> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    return null;
  }
}

/** Fails with the answer when it is not one of `statuses`; answers the body otherwise. */
export function expectStatus(answer: Answer | null, statuses: number[], what: string): unknown {
  if (!answer) throw new Error(`${what}: no answer`);
  if (!statuses.includes(answer.status)) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  if (answer.status >= 400) errorResponseSchema.parse(answer.body);
  return answer.body;
}

/** A payment.succeeded event as the sandbox provider sends it, and its signed delivery. */
export function providerEvent(data: {
  paymentId: string;
  orderId: string;
  amountMinor: number;
  currency: Currency;
}) {
  const event = sandboxEvent("payment.succeeded", data);
  const raw = JSON.stringify(event);
  return {
    id: event.id,
    orderId: data.orderId,
    deliver: (baseUrl: string) =>
      http(baseUrl, "POST", "/webhooks/sandbox", {
        raw,
        headers: {
          [SANDBOX_SIGNATURE_HEADER]: signPayload(
            raw,
            sandboxWebhookSecret(CHILD_APP_SECRET),
            Math.floor(Date.now() / 1000),
          ),
        },
      }),
  };
}
export type ProviderEvent = ReturnType<typeof providerEvent>;
