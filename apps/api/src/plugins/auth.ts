import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { forbidden, unauthorized } from "../lib/errors.ts";
import { findSessionUser, type SessionUser } from "../modules/auth/sessions.ts";

export const SESSION_COOKIE = "sid";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route: anyone (default), a signed-in user, or an admin. */
    auth?: "user" | "admin";
  }
  interface FastifyRequest {
    /** The signed-in user, looked up once per request and only when asked for. */
    currentUser(): Promise<SessionUser | null>;
    /** The signed-in user; throws 401 when there is none. */
    requireUser(): Promise<SessionUser>;
  }
}

const userCache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; config: Config }) => {
    app.decorateRequest("currentUser", function (this: FastifyRequest) {
      let pending = userCache.get(this);
      if (!pending) {
        const token = this.cookies[SESSION_COOKIE];
        pending = token
          ? findSessionUser(opts.db, token, opts.config.SESSION_TTL_DAYS)
          : Promise.resolve(null);
        userCache.set(this, pending);
      }
      return pending;
    });
    app.decorateRequest("requireUser", async function (this: FastifyRequest) {
      const user = await this.currentUser();
      if (!user) throw unauthorized();
      return user;
    });

    // Before validation: an anonymous or non-admin caller learns nothing about the route's body rules.
    app.addHook("preValidation", async (request: FastifyRequest, _reply: FastifyReply) => {
      const rule = request.routeOptions.config.auth;
      if (!rule) return;
      const user = await request.requireUser();
      if (rule === "admin" && user.role !== "admin") throw forbidden();
    });
  },
  { name: "auth", dependencies: ["@fastify/cookie"] },
);

export function sessionCookieOptions(config: Config) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.cookieSecure,
    domain: config.COOKIE_DOMAIN,
    maxAge: config.SESSION_TTL_DAYS * 24 * 60 * 60,
  };
}
