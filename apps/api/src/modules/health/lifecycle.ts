import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Whether this process still takes new work. A SIGTERM flips it first, so readiness turns 503 and
 * the load balancer stops routing here while requests in flight still finish (server.ts).
 */
export class Lifecycle {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}

/**
 * While draining, every answer asks the client to close its connection: keep-alive clients (the
 * load balancer among them) reconnect, to another instance, instead of holding this one open.
 */
export const drainPlugin = fp(
  async (app: FastifyInstance, { lifecycle }: { lifecycle: Lifecycle }) => {
    // A callback hook: it runs on every answer, and an async one costs a promise each time.
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (lifecycle.draining) reply.header("connection", "close");
      done(null, payload);
    });
  },
  { name: "drain" },
);
