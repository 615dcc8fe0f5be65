// `npm start`: builds what is missing or stale, starts the API (which migrates and seeds the demo)
// and the web app, then prints the addresses and demo logins. Ctrl-C stops both.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { AppSecretError, loadOrCreateAppSecret } from "./app-secret.mjs";
import { ensureDependencies, root, run } from "./lib.mjs";

const apiPort = process.env.API_PORT ?? "4000";
const webPort = process.env.WEB_PORT ?? "3000";
// Loopback unless told otherwise, as the API does with API_HOST: nothing reaches this machine's
// demo from the network by default. "localhost", not 127.0.0.1: Next 16 would proxy its own locale
// rewrite to itself in a loop (bench/lib/servers.ts).
const webHost = process.env.WEB_HOST ?? "localhost";
const production = process.env.NODE_ENV === "production";
const env = {
  API_PORT: apiPort,
  API_PUBLIC_URL: process.env.API_PUBLIC_URL ?? `http://localhost:${apiPort}`,
  WEB_ORIGIN: process.env.WEB_ORIGIN ?? `http://localhost:${webPort}`,
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, "data"),
  // The API tells the web app to drop a cached buyer page when its creator edits it. One secret
  // per run, shared by the two processes started here (set both yourself to run them apart).
  WEB_REVALIDATE_URL: process.env.WEB_REVALIDATE_URL ?? `http://localhost:${webPort}/api/revalidate`,
  // The outbox page and the hold release of the demo (loopback clients only). Production brings
  // its own settings: there the API refuses DEV_ROUTES and a missing APP_SECRET.
  DEV_ROUTES: process.env.DEV_ROUTES ?? (production ? "false" : "true"),
};
if (env.DEV_ROUTES === "true" && process.env.DEV_ROUTES === undefined)
  console.log("▶ Dev routes on (DEV_ROUTES=true, loopback clients only): the outbox and the hold release");
let secretNote = "APP_SECRET from the environment";
if (!process.env.APP_SECRET && !production) {
  try {
    const kept = loadOrCreateAppSecret(env.DATA_DIR);
    env.APP_SECRET = kept.secret;
    secretNote = `APP_SECRET ${kept.created ? "made and kept" : "kept"} in ${kept.file}`;
  } catch (err) {
    if (!(err instanceof AppSecretError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
const revalidateSecret = process.env.REVALIDATE_SECRET ?? randomBytes(24).toString("base64url");
env.WEB_REVALIDATE_SECRET = process.env.WEB_REVALIDATE_SECRET ?? revalidateSecret;
env.REVALIDATE_SECRET = revalidateSecret;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if ([".next", "node_modules", "dist", "test-results"].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const stale = (output, ...sources) =>
  !existsSync(output) ||
  Math.max(...sources.map((s) => newestMtime(path.join(root, s)))) > statSync(output).mtimeMs;

async function waitFor(url, name, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${name} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

await ensureDependencies();
if (stale(path.join(root, "apps/api/dist/server.js"), "apps/api/src", "packages/contracts/src")) {
  console.log("▶ Building the API");
  if ((await run("npm", ["run", "build", "-w", "@salelink/api"])) !== 0) process.exit(1);
}
if (stale(path.join(root, "apps/web/dist/server.js"), "apps/web", "packages/contracts/src")) {
  console.log("▶ Building the web app (first start takes a minute)");
  if ((await run("npm", ["run", "build", "-w", "@salelink/web"])) !== 0) process.exit(1);
}

const children = [];
function start(name, command, args, cwd) {
  const child = spawn(command, args, {
    cwd: path.join(root, cwd),
    env: { ...process.env, ...env },
    stdio: "inherit",
  });
  child.on("exit", (code) => {
    if (!stopping) {
      console.error(`${name} stopped (exit ${code}); stopping everything`);
      stop(code ?? 1);
    }
  });
  children.push(child);
}
let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

start("api", "node", ["dist/server.js"], "apps/api");
await waitFor(`http://127.0.0.1:${apiPort}/health`, "the API");
start("web", "node", ["dist/server.js", "-p", webPort, "-H", webHost], "apps/web");
await waitFor(
  `http://${webHost === "0.0.0.0" || webHost === "::" ? "localhost" : webHost}:${webPort}/env.json`,
  "the web app",
);

const demo = JSON.parse(readFileSync(path.join(root, "apps/api/src/demo-accounts.json"), "utf8"));
const seeded = (process.env.SEED_DEMO ?? "true") !== "false";
console.log(`
Salelink is running (embedded database in ${env.DATA_DIR}, sandbox providers)
  Web:      ${env.WEB_ORIGIN}
  API:      ${env.API_PUBLIC_URL}   (OpenAPI: ${env.API_PUBLIC_URL}/docs)
${seeded ? `  Demo logins (password "${demo.password}"):\n${demo.accounts.map((a) => `    ${a.label.padEnd(10)} ${a.email}`).join("\n")}\n  Demo referral link: ${env.WEB_ORIGIN}/?ref=${demo.campaign.token}\n  Demo sales links:\n${demo.catalogue.links.map((l) => `    ${env.WEB_ORIGIN}/v/${l.token}`).join("\n")}   (promo code ${demo.catalogue.promoCode.code})\n  Demo creator page: ${env.WEB_ORIGIN}/c/${demo.catalogue.profile.handle}` : "  Demo data: off (SEED_DEMO=false)"}
  Admin console (sign in as the admin): ${env.WEB_ORIGIN}/admin
  ${
    env.DEV_ROUTES === "true"
      ? `Outbox (e-mails kept, not sent): ${env.WEB_ORIGIN}/dev/mail
  Dev routes ON (DEV_ROUTES=true): /dev/mail and /dev/holds/release answer this machine only`
      : "Dev routes off (DEV_ROUTES=false): no outbox page"
  }
  ${secretNote}; web bound to ${webHost} (WEB_HOST), API to ${process.env.API_HOST ?? "127.0.0.1"} (API_HOST)
Press Ctrl-C to stop.`);
