/**
 * The web app's server: Next.js's own request handler (the same one `next start` runs), with one
 * addition: every answer carries the Content-Security-Policy built from the run-time settings.
 * next.config's headers() are fixed at build time, and a Next.js proxy on every page halved the
 * throughput of cached pages (decision 017). Setting a header here costs nothing measurable.
 *
 *   node dist/server.js [-p 3000] [-H 0.0.0.0] [--dev]
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pagePolicy } from "./page-policy.ts";

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
const dev = args.dev;
// Before Next.js loads: it reads NODE_ENV when its modules are first required.
if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });

// The bundle lives in apps/web/dist; Next.js's project folder is its parent.
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { default: next } = await import("next");
const app = next({ dev, dir, hostname: args.hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();
const csp = pagePolicy(undefined, dev);

function onRequest(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Content-Security-Policy", csp);
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
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
  const exitCode = signal === "SIGINT" ? 130 : 143;
  setTimeout(() => process.exit(exitCode), 10_000).unref();
  server.close(() => {
    app.close().finally(() => process.exit(exitCode));
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
