import {
  localeBodySchema,
  messageResponseSchema,
  onboardingBodySchema,
  onboardingResponseSchema,
  reauthBodySchema,
  sessionProfileSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { SESSION_COOKIE, sessionCookieOptions } from "../../plugins/auth.ts";
import { rateLimit } from "../auth/rate-limits.ts";
import { requireRecentAuth } from "../auth/reauth.ts";
import { type AuthDeps, deleteAccount, requestDeletion, setLocale } from "../auth/service.ts";
import { completeOnboarding, readOnboarding } from "./service.ts";

const tags = ["profile"];

export const profileRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.get(
    "/profile",
    {
      // Every page asks this once; a visitor who is not signed in is the usual answer, not an error
      // (decision 021), so it is null rather than a 401 the browser would report on the console.
      schema: {
        tags,
        summary: "The signed-in account, or null without a valid session",
        response: { 200: sessionProfileSchema },
      },
    },
    async (request, reply) => {
      const user = await request.currentUser();
      reply.header("cache-control", "no-store");
      if (!user) return null;
      return {
        id: user.id,
        email: user.email,
        role: user.role,
        locale: user.locale,
        emailVerified: user.emailVerifiedAt !== null,
        onboardingCompleted: user.onboardingCompletedAt !== null,
        twoFactorEnabled: user.twoFactorEnabledAt !== null,
        createdAt: user.createdAt.toISOString(),
      };
    },
  );

  app.patch(
    "/profile/locale",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "The account's language (e-mails are sent in it)",
        body: localeBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await setLocale(deps.db, (await request.requireUser()).id, request.body.locale);
      return { message: request.t("Language saved.") };
    },
  );

  app.get(
    "/profile/onboarding",
    {
      config: { auth: "user" },
      schema: { tags, summary: "What onboarding collected", response: { 200: onboardingResponseSchema } },
    },
    async (request) => ({ onboarding: await readOnboarding(deps.db, (await request.requireUser()).id) }),
  );

  app.post(
    "/profile/onboarding",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "Complete onboarding, as an individual or a professional",
        body: onboardingBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      if (!user.emailVerifiedAt) {
        throw new AppError("UnverifiedAccountException", "Please verify your e-mail address first.");
      }
      await completeOnboarding(deps.db, user.id, request.body);
      return { message: request.t("Onboarding complete.") };
    },
  );

  app.post(
    "/profile/delete",
    {
      config: { auth: "user", rateLimit: rateLimit(deps.config, "email") },
      schema: {
        tags,
        summary:
          "E-mail a link that deletes the account; needs the current password unless the sign-in is recent",
        body: reauthBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      await requireRecentAuth(deps.db, deps.config, user, request.body?.password);
      await requestDeletion(deps, user.id);
      return { message: request.t("We sent you an e-mail with a link to confirm the deletion.") };
    },
  );

  app.delete(
    "/profile/delete/:token",
    {
      schema: {
        tags,
        summary: "Delete the account with the token from the e-mail",
        // Any text up to a bound: a malformed token is an invalid link, said by the service.
        params: z.object({ token: z.string().max(256) }),
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await deleteAccount(deps, request.params.token);
      reply.clearCookie(SESSION_COOKIE, { ...sessionCookieOptions(deps.config), maxAge: 0 });
      return { message: request.t("Your account has been deleted.") };
    },
  );
};
