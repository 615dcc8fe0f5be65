import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Metrics } from "./metrics.ts";

/**
 * Counts every answer under its route pattern; requests matching no route share one label. A
 * callback hook, not an async one: it runs on every request, and a promise per hook is measurable
 * on the cheapest routes (clicks).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics }: { metrics: Metrics }) => {
    app.addHook("onResponse", (request, reply, done) => {
      const route = request.routeOptions.url ?? "(unmatched)";
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: "metrics" },
);
