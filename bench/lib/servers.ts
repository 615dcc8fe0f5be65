/**
 * Builds (when missing) and starts the servers the selected scenarios need, each on a free loopback
 * port in its own process group, so that cleanup stops them and whatever they spawned.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { prepareBaselineNext } from "./baseline-next.ts";
import { apiDir, apiPoolSize, appSecret, benchDir, log, rootDir, webDir, webHeaders } from "./context.ts";
import type { BenchDatabase } from "./database.ts";
import type { Options } from "./options.ts";
import {
  freePort,
  host,
  loopbackAddress,
  runToEnd,
  type Spawned,
  start,
  waitUntilReady,
} from "./processes.ts";

/** `api2`: a second API instance on the same databases (the launch scenario's `--instances 2`). */
export type ServerName = "bare" | "api" | "api2" | "web" | "baseline";

export interface Server {
  name: ServerName;
  origin: string;
  process: Spawned;
}

export const baselineDir = path.join(benchDir, ".baseline-next");
export const nextBin = path.join(rootDir, "node_modules", ".bin", "next");
export const readyTimeoutMs = 90_000;
export const buildTimeoutMs = 10 * 60_000;

export async function buildIfNeeded(options: Options, needApi: boolean, needWeb: boolean): Promise<void> {
  const echo = true;
  if (needApi && options.apiDir !== undefined) {
    // Another package's build: measured as it is, never built here.
    if (!existsSync(path.join(options.apiDir, "dist", "server.js"))) {
      throw new Error(`No build at ${options.apiDir}/dist/server.js: build it first (node build.mjs)`);
    }
  } else if (needApi && (options.rebuild || !existsSync(path.join(apiDir, "dist", "server.js")))) {
    log("Building the API (npm run build -w @salelink/api) ...");
    await runToEnd("api build", "npm", ["run", "build", "-w", "@salelink/api"], {
      cwd: rootDir,
      echo,
      timeoutMs: buildTimeoutMs,
    });
  }
  if (needWeb && (options.rebuild || !existsSync(path.join(webDir, "dist", "server.js")))) {
    log("Building the web app (npm run build -w @salelink/web) ...");
    await runToEnd("web build", "npm", ["run", "build", "-w", "@salelink/web"], {
      cwd: rootDir,
      env: { NEXT_TELEMETRY_DISABLED: "1" },
      echo,
      timeoutMs: buildTimeoutMs,
    });
  }
}

/** The static Next.js baseline app, built once per `next` version and set of sources. */
export async function buildBaselineIfNeeded(): Promise<void> {
  const nextVersion = (
    JSON.parse(readFileSync(path.join(rootDir, "node_modules", "next", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  await prepareBaselineNext({ dir: baselineDir, nextBin, nextVersion, echo: true });
}

async function startServer(
  name: ServerName,
  readyPath: string,
  readyHeaders: Record<string, string>,
  launch: (port: number) => Spawned,
  address = host,
): Promise<Server> {
  const port = await freePort();
  const spawned = launch(port);
  const origin = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
  await waitUntilReady(spawned, `${origin}${readyPath}`, readyHeaders, readyTimeoutMs);
  log(`${spawned.name} ready on ${origin}`);
  return { name, origin, process: spawned };
}

export async function startServers(
  options: Options,
  needed: Set<ServerName>,
  database: BenchDatabase | undefined,
  uploadsDir: string,
): Promise<Map<ServerName, Server>> {
  const servers = new Map<ServerName, Server>();
  const echo = options.verbose;
  const failed: string[] = [];
  const attempt = async (name: ServerName, run: () => Promise<Server>) => {
    if (!needed.has(name)) return;
    try {
      servers.set(name, await run());
    } catch (err) {
      failed.push(name);
      console.error(`\n[bench] ${name} failed to start:\n${err instanceof Error ? err.message : err}\n`);
    }
  };

  await attempt("bare", () =>
    startServer("bare", "/bare", {}, (port) =>
      start("bare Fastify", process.execPath, ["--import", "tsx", "servers/bare.ts"], {
        cwd: benchDir,
        env: { BARE_PORT: String(port), NODE_ENV: "production" },
        echo,
      }),
    ),
  );

  // Several instances share PostgreSQL and Redis, as behind a load balancer; one alone keeps its
  // rate limits and click buffer in memory, as the earlier scenarios were measured.
  const redis = needed.has("api2") ? { REDIS_URL: loopbackUrl(options.redisUrl) } : {};
  for (const name of ["api", "api2"] as const) {
    if (!needed.has(name) || !database) continue;
    await attempt(name, () =>
      startServer(name, "/maintenance", {}, (port) =>
        start(name, process.execPath, [...cpuProfArgs(options), "dist/server.js"], {
          cwd: options.apiDir ?? apiDir,
          env: {
            // Production's settings, each set here, but not NODE_ENV=production: production refuses
            // sandbox payments beside real payouts, and the bench pays with the sandbox.
            NODE_ENV: "development",
            COOKIE_SECURE: "true",
            DOCS_ENABLED: "false",
            DEV_ROUTES: "false",
            API_HOST: host,
            API_PORT: String(port),
            API_PUBLIC_URL: `http://${host}:${port}`,
            LOG_LEVEL: "warn",
            // The demo catalogue gives the link scenarios a real link with its files (seeded once).
            SEED_DEMO: name === "api" ? "true" : "false",
            // One throwaway secret per run (context.ts); the providers are the sandboxes.
            APP_SECRET: appSecret,
            JOBS_ENABLED: "false",
            // As behind a load balancer on this machine: the click scenario's visitors each come from
            // an address of their own (X-Forwarded-For), as a few visitors per address count (issue 16).
            TRUST_PROXY: "127.0.0.1",
            // Stopped at the end of the run, not behind a load balancer: no drain, no metrics listener.
            SHUTDOWN_DRAIN_MS: "0",
            METRICS_PORT: "off",
            DATABASE_POOL_SIZE: String(apiPoolSize),
            // Only the bench database and the in-memory click buffer: nothing inherited from the caller.
            DATABASE_URL: undefined,
            DATA_DIR: undefined,
            REDIS_URL: undefined,
            CLICK_FLUSH_MS: undefined,
            UPLOADS_DIR: uploadsDir,
            ...database.env,
            ...redis,
          },
          echo,
        }),
      ),
    );
  }

  /*
   * Next.js servers listen on "localhost", not 127.0.0.1: with `-H 127.0.0.1` Next 16 treats the web
   * proxy's locale rewrite as an external URL (NextURL spells loopback as "localhost") and proxies it
   * to itself in a loop, so every page fails (vercel/next.js#94745). Load goes to the address
   * "localhost" resolves to, which is the one the server binds.
   */
  const nextAddress = await loopbackAddress("localhost");
  const api = servers.get("api");
  if (needed.has("web") && !api) {
    failed.push("web");
    console.error("[bench] web not started: it needs the API, which is not running.");
  } else if (api) {
    await attempt("web", () =>
      startServer(
        "web",
        "/",
        webHeaders,
        (port) =>
          // The web app's own server (apps/web/server/main.ts): Next.js's handler plus the CSP header.
          start("web", process.execPath, ["dist/server.js", "-p", String(port), "-H", "localhost"], {
            cwd: webDir,
            env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", API_PUBLIC_URL: api.origin },
            echo,
          }),
        nextAddress,
      ),
    );
  }

  await attempt("baseline", () =>
    startServer(
      "baseline",
      "/",
      webHeaders,
      (port) =>
        start("static baseline", nextBin, ["start", "-p", String(port), "-H", "localhost"], {
          cwd: baselineDir,
          env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
          echo,
        }),
      nextAddress,
    ),
  );

  if (failed.length > 0) log(`Not running: ${failed.join(", ")}; scenarios needing them are skipped.`);
  return servers;
}

/** The shared Redis is on this machine only, like the bench database. */
/** V8's profiler flags when asked for: one `.cpuprofile` per API process, written as it exits. */
const cpuProfArgs = (options: Options) =>
  options.apiCpuProf ? ["--cpu-prof", "--cpu-prof-dir", options.apiCpuProf] : [];

function loopbackUrl(raw: string): string {
  const url = new URL(raw);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    throw new Error(`Refusing a non-loopback Redis host "${url.hostname}"; use 127.0.0.1`);
  }
  return raw;
}

/** A server that stopped during the run makes its numbers meaningless: stop here, with its last words. */
export function assertRunning(server: Server): void {
  const how = server.process.exitedWith();
  if (how === undefined) return;
  throw new Error(
    `${server.process.name} exited (${how}) during the run; its last output:\n${server.process.tail() || "(none)"}`,
  );
}
