import { messageResponseSchema, signinBodySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { SESSION_COOKIE, sessionCookieOptions } from "../../plugins/auth.ts";
import { signIn } from "./service.ts";
import { deleteSession } from "./sessions.ts";

export const authRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (app, { db, config }) => {
  app.post(
    "/auth/signin",
    {
      config: { maintenance: "allow" },
      schema: {
        tags: ["auth"],
        summary: "Sign in with e-mail and password",
        body: signinBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const { token } = await signIn(db, config, request.body);
      reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(config));
      return { message: "Signed in." };
    },
  );

  app.post(
    "/auth/logout",
    {
      config: { maintenance: "allow" },
      schema: {
        tags: ["auth"],
        summary: "End the current session",
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await deleteSession(db, token);
      reply.clearCookie(SESSION_COOKIE, { ...sessionCookieOptions(config), maxAge: 0 });
      return { message: "Signed out." };
    },
  );
};
