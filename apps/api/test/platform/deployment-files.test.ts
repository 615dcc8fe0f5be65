import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { businessRulesEnvSchema } from "@salelink/contracts";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { buildApp } from "../../src/app.ts";
import { configVariableNames, loadConfig } from "../../src/config.ts";
import type { Db } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema/index.ts";
import { assertPaymentsMatchPayouts } from "../../src/providers/production-guard.ts";
import { testConfig } from "../support/app.ts";

/*
 * What can be checked of the deployment files without Docker (no daemon, no base images here):
 * the compose file parses and sets only variables the apps read, with values the API accepts; every
 * COPY source exists; each npm ci accepts the lockfile; the commands start files the builds produce;
 * the health checks hit routes.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

const envSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));
const serviceSchema = z.object({
  image: z.string().optional(),
  build: z.object({ context: z.string(), dockerfile: z.string() }).optional(),
  environment: envSchema.optional(),
  ports: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  deploy: z.object({ replicas: z.number() }).optional(),
  stop_grace_period: z.string().optional(),
});
const compose = z
  .object({ services: z.record(z.string(), serviceSchema) })
  .parse(parse(read("compose.yaml"), { merge: true }));
const service = (name: string) => {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no ${name} service`);
  return found;
};

/** `${NAME:?message}` and `${NAME:-default}` as compose would fill them from a complete .env. */
const substitute = (value: string) => value.replace(/\$\{[A-Z_]+(?::[?-][^}]*)?\}/g, "x".repeat(40));

/** Every process.env.NAME the web app's own code reads, plus what Next.js and its rules read. */
function webVariables(): Set<string> {
  const names = new Set<string>(["NODE_ENV", "PORT", "HOSTNAME", "NEXT_TELEMETRY_DISABLED"]);
  for (const key of Object.keys(businessRulesEnvSchema.in.shape)) names.add(key);
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (entry === "node_modules" || entry === ".next") continue;
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) visit(full);
      else if (/\.(ts|tsx|mjs)$/.test(entry)) {
        for (const m of readFileSync(full, "utf8").matchAll(/process\.env\.([A-Z0-9_]+)/g))
          names.add(m[1] ?? "");
      }
    }
  };
  visit(path.join(root, "apps/web"));
  return names;
}

interface Instruction {
  stage: string;
  command: string;
  args: string;
}

function dockerfile(file: string): Instruction[] {
  const text = read(file).replace(/\\\n/g, " ");
  const out: Instruction[] = [];
  let stage = "";
  for (const line of text.split("\n")) {
    const m = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    const [, command = "", args = ""] = m;
    if (command === "FROM") stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? args;
    out.push({ stage, command, args });
  }
  return out;
}

const apps: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe("compose.yaml", () => {
  it("runs two API and two web replicas behind the load balancer, with the shared services", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ["api", "lb", "minio", "minio-bucket", "postgres", "redis", "web"].sort(),
    );
    expect(service("api").deploy?.replicas).toBe(2);
    expect(service("web").deploy?.replicas).toBe(2);
    expect(service("api").build?.dockerfile).toBe("apps/api/Dockerfile");
    expect(service("web").build?.dockerfile).toBe("apps/web/Dockerfile");
    // Replicas publish nothing themselves: traffic enters through the load balancer only, and the
    // metrics port stays inside the network.
    expect(service("api").ports).toBeUndefined();
    expect(service("web").ports).toBeUndefined();
    expect(service("lb").ports).toEqual(["8080:8080", "4000:4000"]);
  });

  it("sets only variables the API reads, with values it accepts in production", () => {
    const env = service("api").environment ?? {};
    const known = new Set(configVariableNames());
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
    const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(v)]));
    const config = loadConfig(filled);
    expect(config.NODE_ENV).toBe("production");
    expect(config.storage.STORAGE_PROVIDER).toBe("s3");
    expect(config.REDIS_URL).toBeDefined();
    expect(config.DATABASE_URL).toBeDefined();
    expect(config.metricsPort).toBe(9464);
    // Issue 16: no unauthenticated dev routes, no public route map, a secret from the environment
    // only, and never sandbox payments beside real payouts (the production guard would refuse).
    expect(config.DEV_ROUTES).toBe(false);
    expect(config.docsEnabled).toBe(false);
    expect(env.APP_SECRET).toMatch(/^\$\{APP_SECRET:\?/);
    expect(() =>
      assertPaymentsMatchPayouts({
        nodeEnv: config.NODE_ENV,
        payments: config.payments.PAYMENT_PROVIDER,
        payouts: config.payouts.PAYOUT_PROVIDER,
      }),
    ).not.toThrow();
    // docker stop must not cut the drain short: its grace period outlasts the hard limit.
    const grace = Number((service("api").stop_grace_period ?? "10s").replace(/s$/, "")) * 1000;
    expect(grace).toBeGreaterThan(config.SHUTDOWN_TIMEOUT_MS);
  });

  it("sets only variables the web app reads, sharing the revalidate secret with the API", () => {
    const env = service("web").environment ?? {};
    const known = webVariables();
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
    expect(env.REVALIDATE_SECRET).toBe(service("api").environment?.WEB_REVALIDATE_SECRET);
    expect(env.API_PUBLIC_URL).toBe(service("api").environment?.API_PUBLIC_URL);
  });

  it("points the load balancer at the services and ports compose defines", () => {
    const nginx = read("deploy/nginx.conf");
    const apiPort = service("api").environment?.API_PORT;
    expect(nginx).toContain(`server api:${apiPort} resolve`);
    expect(nginx).toContain("server web:3000 resolve");
    expect(nginx).not.toMatch(/proxy_pass[^;]*9464/);
    const lbVolumes = read("compose.yaml").includes("./deploy/nginx.conf:/etc/nginx/nginx.conf:ro");
    expect(lbVolumes).toBe(true);
  });
});

describe("Dockerfiles", () => {
  const files = ["apps/api/Dockerfile", "apps/web/Dockerfile"];

  it.each(files)("%s copies only files that exist, and runs as a non-root user", (file) => {
    const steps = dockerfile(file);
    expect(steps.filter((s) => s.command === "FROM").map((s) => s.args.split(" ")[0])).toEqual([
      "node:20-bookworm-slim",
      "node:20-bookworm-slim",
    ]);
    for (const step of steps.filter((s) => s.command === "COPY" && !s.args.includes("--from="))) {
      const parts = step.args.split(/\s+/).filter((p) => !p.startsWith("--"));
      for (const source of parts.slice(0, -1)) expect(existsSync(path.join(root, source)), source).toBe(true);
    }
    const runtime = steps.filter((s) => s.stage === "runtime");
    expect(runtime.find((s) => s.command === "USER")?.args).toBe("node");
    // Production dependencies only in the image that runs.
    expect(runtime.find((s) => s.command === "RUN" && s.args.includes("npm ci"))?.args).toContain(
      "--omit=dev",
    );
  });

  // npm ci refuses a lockfile that lacks any package the manifests need, even an optional binary
  // for another platform (this registry lacks some of Biome's, so `npm install` here leaves them out).
  it.each(files)(
    "%s: each npm ci accepts the lockfile, on the manifests the image copies",
    async (file) => {
      const steps = dockerfile(file);
      const installs = steps
        .filter((s) => s.command === "RUN" && s.args.startsWith("npm ci "))
        .map((s) => (s.args.split("&&")[0] ?? "").trim().split(/\s+/).slice(1));
      expect(installs.length).toBe(2);
      const dir = await mkdtemp(path.join(os.tmpdir(), "npm-ci-"));
      try {
        const manifests = steps
          .filter((s) => s.stage === "build" && s.command === "COPY" && /package(-lock)?\.json/.test(s.args))
          .flatMap((s) => s.args.split(/\s+/).slice(0, -1));
        for (const manifest of manifests) {
          await mkdir(path.join(dir, path.dirname(manifest)), { recursive: true });
          await copyFile(path.join(root, manifest), path.join(dir, manifest));
        }
        for (const args of installs) {
          const run = spawnSync("npm", [...args, "--dry-run"], {
            cwd: dir,
            encoding: "utf8",
            timeout: 120_000,
          });
          expect(run.status, `npm ${args.join(" ")}:\n${run.stderr}`).toBe(0);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it("starts the API from the file its build writes, and probes readiness", () => {
    const steps = dockerfile("apps/api/Dockerfile");
    const cmd = z.array(z.string()).parse(JSON.parse(steps.find((s) => s.command === "CMD")?.args ?? "[]"));
    const workdir = steps.filter((s) => s.command === "WORKDIR").at(-1)?.args;
    expect(workdir).toBe("/app/apps/api");
    expect(cmd.at(-1)).toBe("dist/server.js");
    expect(read("apps/api/build.mjs")).toContain('outfile: "dist/server.js"');
    expect(
      steps.some((s) => s.command === "COPY" && s.args.includes("/app/apps/api/dist apps/api/dist")),
    ).toBe(true);
    expect(steps.find((s) => s.command === "HEALTHCHECK")?.args).toContain("127.0.0.1:4000/health/ready");
  });

  it("starts the web app's own server, built by the web build, and probes a real route", () => {
    const steps = dockerfile("apps/web/Dockerfile");
    const cmd = z.array(z.string()).parse(JSON.parse(steps.find((s) => s.command === "CMD")?.args ?? "[]"));
    expect(cmd.slice(0, 2)).toEqual(["node", "dist/server.js"]);
    expect(steps.find((s) => s.command === "WORKDIR" && s.args === "/app/apps/web")).toBeDefined();
    // The build that the image runs writes the file; Next.js (imported by it) is a production dependency.
    expect(read("apps/web/package.json")).toMatch(/"build": "next build && node scripts\/build-server\.mjs/);
    expect(read("apps/web/scripts/build-server.mjs")).toContain('outfile: "dist/server.js"');
    expect(JSON.parse(read("apps/web/package.json")).dependencies).toHaveProperty("next");
    expect(steps.find((s) => s.command === "HEALTHCHECK")?.args).toContain("127.0.0.1:3000/env.json");
    expect(read("apps/web/app/env.json/route.ts")).toMatch(/export (async )?function GET/);
  });

  it("health check paths are routes of the API", async () => {
    // A database that is never queried: building the app registers routes without touching it.
    const db: Db = drizzle.mock({ schema });
    const app = await buildApp({ config: testConfig(), db });
    apps.push(app);
    await app.ready();
    expect(app.hasRoute({ method: "GET", url: "/health/ready" })).toBe(true);
    expect(app.hasRoute({ method: "GET", url: "/health" })).toBe(true);
    expect(app.hasRoute({ method: "GET", url: "/metrics" })).toBe(false);
  });

  it(".dockerignore keeps host installs, builds, data and secrets out of the context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["**/node_modules", "**/.next", "**/dist", "**/data", ".env", ".git"]) {
      expect(ignored).toContain(entry);
    }
  });
});
