// `npm start`: builds what is missing or stale, starts the API (which migrates and seeds the demo)
// and the web app, then prints the addresses and demo logins. Ctrl-C stops both.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ensureDependencies, root, run } from "./lib.mjs";

const apiPort = process.env.API_PORT ?? "4000";
const webPort = process.env.WEB_PORT ?? "3000";
const env = {
  API_PORT: apiPort,
  API_PUBLIC_URL: process.env.API_PUBLIC_URL ?? `http://localhost:${apiPort}`,
  WEB_ORIGIN: process.env.WEB_ORIGIN ?? `http://localhost:${webPort}`,
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, "data"),
  // The API tells the web app to drop a cached buyer page when its creator edits it. One secret
  // per run, shared by the two processes started here (set both yourself to run them apart).
  WEB_REVALIDATE_URL: process.env.WEB_REVALIDATE_URL ?? `http://127.0.0.1:${webPort}/api/revalidate`,
};
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
start("web", "node", ["dist/server.js", "-p", webPort], "apps/web");
await waitFor(`http://127.0.0.1:${webPort}/env.json`, "the web app");

const demo = JSON.parse(readFileSync(path.join(root, "apps/api/src/demo-accounts.json"), "utf8"));
const seeded = (process.env.SEED_DEMO ?? "true") !== "false";
console.log(`
Salelink is running (embedded database in ${env.DATA_DIR}, sandbox providers)
  Web:      ${env.WEB_ORIGIN}
  API:      ${env.API_PUBLIC_URL}   (OpenAPI: ${env.API_PUBLIC_URL}/docs)
${seeded ? `  Demo logins (password "${demo.password}"):\n${demo.accounts.map((a) => `    ${a.label.padEnd(10)} ${a.email}`).join("\n")}\n  Demo referral link: ${env.WEB_ORIGIN}/?ref=${demo.campaign.token}\n  Demo sales links:\n${demo.catalogue.links.map((l) => `    ${env.WEB_ORIGIN}/v/${l.token}`).join("\n")}   (promo code ${demo.catalogue.promoCode.code})\n  Demo creator page: ${env.WEB_ORIGIN}/c/${demo.catalogue.profile.handle}` : "  Demo data: off (SEED_DEMO=false)"}
  Admin console (sign in as the admin): ${env.WEB_ORIGIN}/admin
  Outbox (e-mails kept, not sent): ${env.WEB_ORIGIN}/dev/mail
Press Ctrl-C to stop.`);
