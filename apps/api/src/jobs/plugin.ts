import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Worker } from "./worker.ts";

/**
 * Ties a worker to the app's lifecycle: it starts once the app is ready (when enabled), and the app's
 * close waits for the jobs in flight, before the caller closes the database under them.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, { worker, enabled }: { worker: Worker; enabled: boolean }) => {
    if (enabled) app.addHook("onReady", async () => worker.start());
    app.addHook("onClose", async () => worker.stop());
  },
  { name: "jobs" },
);
