import type { FastifyInstance } from "fastify";

/**
 * A request that carries no body has nothing to parse, whatever its Content-Type says. Clients
 * often send `Content-Type: application/json` on calls without a body (a logout, a delete), and
 * Fastify's JSON parser refused them with a 400 ("empty JSON body") before the auth hook ran, so an
 * anonymous caller was told "malformed" instead of 401. Such a request now reaches the route as if
 * no content type had been sent: a route without a body schema answers as usual, and a route that
 * needs a body still answers 400, from its schema's validation, after the auth check.
 *
 * No body means what HTTP/1.1 frames as none (RFC 9110 §8.6, RFC 9112 §6.3): neither
 * Transfer-Encoding nor a Content-Length other than 0. The content type is dropped, not replaced by
 * another parser, so every scope keeps its own parsers (the webhooks' raw bytes) and their limits.
 */
export function ignoreContentTypeWithoutBody(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const { headers } = request;
    if (headers["content-type"] === undefined || headers["transfer-encoding"] !== undefined) return;
    const length = headers["content-length"];
    if (length === undefined || length.trim() === "0") delete headers["content-type"];
  });
}
