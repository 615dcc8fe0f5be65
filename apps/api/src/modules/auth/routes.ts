import {
  emailRequestSchema,
  messageResponseSchema,
  passwordChangeBodySchema,
  passwordStoreBodySchema,
  passwordStoreResponseSchema,
  reauthBodySchema,
  signinBodySchema,
  signupBodySchema,
  signupQuerySchema,
  twoFactorDisableBodySchema,
  twoFactorEnableBodySchema,
  twoFactorEnableResponseSchema,
  twoFactorSetupResponseSchema,
  verifyEmailBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { SESSION_COOKIE, sessionCookieOptions } from "../../plugins/auth.ts";
import { rateLimit } from "./rate-limits.ts";
import { requireRecentAuth } from "./reauth.ts";
import { type AuthDeps, changePassword, sendPasswordReset, signIn, storePassword } from "./service.ts";
import { deleteSession } from "./sessions.ts";
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from "./two-factor.ts";
import { resendVerification, signUp, verifyEmail } from "./verification.ts";

const tags = ["auth"];

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { config } = deps;
  const clearSession = { ...sessionCookieOptions(config), maxAge: 0 };

  app.post(
    "/auth/signup",
    {
      config: { rateLimit: rateLimit(config, "signup") },
      schema: {
        tags,
        summary: "Create an account; a valid ?ref= links it to that affiliate campaign",
        querystring: signupQuerySchema,
        body: signupBodySchema,
        response: { 201: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await signUp(deps, request.body, request.query.ref, request.ip, request.headers["user-agent"] ?? "");
      return reply.code(201).send({ message: request.t("Check your e-mail to confirm your address.") });
    },
  );

  app.post(
    "/auth/signin",
    {
      config: { maintenance: "allow", rateLimit: rateLimit(config, "signin") },
      schema: {
        tags,
        summary: "Sign in with e-mail, password and, when 2FA is on, a code",
        body: signinBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const { token } = await signIn(deps, request.body);
      reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(config));
      return { message: request.t("Signed in.") };
    },
  );

  app.post(
    "/auth/logout",
    {
      config: { maintenance: "allow" },
      schema: { tags, summary: "End the current session", response: { 200: messageResponseSchema } },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await deleteSession(deps.db, token);
      reply.clearCookie(SESSION_COOKIE, clearSession);
      return { message: request.t("Signed out.") };
    },
  );

  app.post(
    "/auth/verify/email/:token",
    {
      config: { rateLimit: rateLimit(config, "password") },
      schema: {
        tags,
        summary:
          "Confirm an e-mail address with the token from the e-mail; the account gets the password of the sign-up that link was sent for (or the one given, for a resent link), and every earlier session and second factor ends",
        // Any text up to a bound: a malformed token is an invalid link, said by the service.
        params: z.object({ token: z.string().max(256) }),
        body: verifyEmailBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await verifyEmail(deps, request.params.token, request.body?.password, request.locale);
      return { message: request.t("Email successfully verified.") };
    },
  );

  app.post(
    "/auth/email/resend",
    {
      config: { rateLimit: rateLimit(config, "email") },
      schema: {
        tags,
        summary: "Send the verification e-mail again",
        body: emailRequestSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await resendVerification(deps, request.body.email);
      return {
        message: request.t(
          "If this address has an account waiting for confirmation, a new link is on its way.",
        ),
      };
    },
  );

  app.post(
    "/auth/password/send",
    {
      config: { rateLimit: rateLimit(config, "email", 401) },
      schema: {
        tags,
        summary: "Send a password reset link",
        body: emailRequestSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await sendPasswordReset(deps, request.body.email);
      return { message: request.t("If this address has an account, a reset link is on its way.") };
    },
  );

  app.post(
    "/auth/password/store",
    {
      config: { rateLimit: rateLimit(config, "password") },
      schema: {
        tags,
        summary: "Set a new password with the token from the reset e-mail",
        body: passwordStoreBodySchema,
        response: { 200: passwordStoreResponseSchema },
      },
    },
    async (request) => {
      await storePassword(deps, request.body, request.ip);
      return { success: true, message: request.t("Your password has been reset. You can sign in now.") };
    },
  );

  app.patch(
    "/auth/password",
    {
      config: { auth: "user", rateLimit: rateLimit(config, "password") },
      schema: {
        tags,
        summary: "Change the password; every session ends",
        body: passwordChangeBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      await changePassword(deps, user.id, request.body, request.ip);
      reply.clearCookie(SESSION_COOKIE, clearSession);
      return { message: request.t("Your password has been changed. Please sign in again.") };
    },
  );

  app.post(
    "/auth/2fa/setup",
    {
      config: { auth: "user", rateLimit: rateLimit(config, "signin") },
      schema: {
        tags,
        summary: "Start two-factor set-up; needs the current password unless the sign-in is recent",
        body: reauthBodySchema,
        response: { 200: twoFactorSetupResponseSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      await requireRecentAuth(deps.db, config, user, request.body?.password);
      return setupTwoFactor(deps.db, config, user.id);
    },
  );

  app.post(
    "/auth/2fa/enable",
    {
      config: { auth: "user", rateLimit: rateLimit(config, "signin") },
      schema: {
        tags,
        summary: "Confirm two-factor set-up with a code",
        body: twoFactorEnableBodySchema,
        response: { 200: twoFactorEnableResponseSchema },
      },
    },
    async (request) => enableTwoFactor(deps.db, config, (await request.requireUser()).id, request.body.code),
  );

  app.post(
    "/auth/2fa/disable",
    {
      config: { auth: "user", rateLimit: rateLimit(config, "signin") },
      schema: {
        tags,
        summary: "Turn two-factor authentication off",
        body: twoFactorDisableBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      await disableTwoFactor(deps.db, config, user.id, request.body.password, request.body.code);
      return { message: request.t("Two-factor authentication is off.") };
    },
  );
};
