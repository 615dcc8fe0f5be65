/**
 * The API baseline: Fastify with one route and nothing else (no logger, plugins or database). Run as
 * its own process, like the real API, so that neither shares a thread with the load generator.
 * `POST /bare` parses a JSON body with Fastify's own parser and answers the same small object: the
 * baseline of the scenarios that post JSON.
 */
import Fastify from "fastify";

const port = Number(process.env.BARE_PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error("BARE_PORT must be set to a port number");
  process.exit(1);
}

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ ok: true, service: "bare" }));
app.post("/bare", async () => ({ ok: true, service: "bare" }));

const shutdown = () => {
  void app.close().then(() => process.exit(0));
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

await app.listen({ host: "127.0.0.1", port });
