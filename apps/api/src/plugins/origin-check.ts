import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { forbidden } from "../lib/errors.ts";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing calls sent by browsers from foreign origins (CSRF). Browsers always send
 * Origin on such calls; server-to-server callers (webhooks) send none and carry no session cookie.
 */
export const originCheck = fp(
  async (app: FastifyInstance, { allowed }: { allowed: string[] }) => {
    const origins = new Set(allowed.map((o) => new URL(o).origin));
    app.addHook("onRequest", async (request) => {
      if (safeMethods.has(request.method)) return;
      const origin = request.headers.origin;
      if (origin && !origins.has(origin)) throw forbidden();
    });
  },
  { name: "origin-check" },
);
