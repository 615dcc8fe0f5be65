/**
 * The web app's server: Next.js's own request handler (the same one `next start` runs), with one
 * addition: every answer carries the Content-Security-Policy built from the run-time settings, its
 * script-src naming the hashes or the nonce of that answer's inline scripts (decision 020).
 * next.config's headers() are fixed at build time, and a Next.js proxy on every page halved the
 * throughput of cached pages (decision 017).
 *
 *   node dist/server.js [-p 3000] [-H 0.0.0.0] [--dev]
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import compression from "next/dist/compiled/compression/index.js";
import { releaseCompressionStream } from "next/dist/server/lib/release-compression-stream.js";
import { serverEnv } from "../lib/server-env.ts";
import { botNotFound } from "./bot-not-found.ts";
import { prepareLocale } from "./locale-request.ts";
import { maintenanceGate } from "./maintenance-gate.ts";
import { loadFromServer, notFoundPage } from "./not-found-page.ts";
import { ownScriptHashes, pagePolicy } from "./page-policy.ts";
import { responsePolicy } from "./response-policy.ts";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", short: "p", default: process.env.PORT ?? "3000" },
    // Without -H, every interface, IPv4 and IPv6 (as `next start`). Not $HOSTNAME: Docker sets it to
    // the container's name, which would leave the loopback health check unanswered.
    hostname: { type: "string", short: "H" },
    dev: { type: "boolean", default: false },
  },
});
const port = Number(args.port);
/** Pages whose script hashes are kept (one per ETag: each page, locale and build); a few hundred bytes each. */
const POLICY_CACHE_PAGES = 2_000;
const dev = args.dev;
// Before Next.js loads: it reads NODE_ENV when its modules are first required.
if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });

// The bundle lives in apps/web/dist; Next.js's project folder is its parent.
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { default: next } = await import("next");
const app = next({ dev, dir, hostname: args.hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
// The whole 404 page, asked of this server when a page finds its resource missing (not-found-page.ts).
const loadNotFoundPage = loadFromServer(`http://${args.hostname ?? "127.0.0.1"}:${port}`);
// Maintenance, enforced here rather than only in the browser (decision 022); read before the first request.
const maintenance = maintenanceGate({
  apiUrl: serverEnv.apiInternalUrl,
  pollMs: serverEnv.maintenancePollMs,
});
await maintenance.start();
const policy = responsePolicy({
  policy: pagePolicy(undefined, dev),
  ownHashes: ownScriptHashes,
  cacheSize: POLICY_CACHE_PAGES,
  onRefused: (url, refused) =>
    console.warn(
      `CSP: ${url} holds ${refused} inline script(s) of no known shape; the browser will refuse them`,
    ),
});
// Next.js's own compression is off (next.config.ts `compress: false`) and done here instead, with
// the same middleware, so that the policy hook, installed after it, sees the page before gzip.
const compress = compression();

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  compress(req, res, () => {});
  // As Next.js does: a client gone before the end would leave the zlib stream open.
  res.once("close", () => {
    if (!res.writableFinished) releaseCompressionStream(res);
  });
  policy.prepare(req, res);
  // The language for the locale rewrites, and Vary on the pages it selects (decision 023).
  prepareLocale(req, res);
  // Every 404: crawlers get the bare status, people the whole page (bot-not-found.ts, not-found-page.ts).
  if (!botNotFound(req, res)) notFoundPage(req, res, loadNotFoundPage);
  maintenance.handle(req, res, () => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
}

const server = createServer(onRequest);
server.listen(port, args.hostname, () => {
  console.log(
    `web listening on http://${args.hostname ?? "localhost"}:${port}${dev ? " (development)" : ""}`,
  );
});

/** Stop taking connections, let requests in flight finish, then close Next.js (as `next start` does). */
let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  maintenance.stop();
  const exitCode = signal === "SIGINT" ? 130 : 143;
  setTimeout(() => process.exit(exitCode), 10_000).unref();
  server.close(() => {
    app.close().finally(() => process.exit(exitCode));
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
