import type { FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { AppError } from "../../lib/errors.ts";

type Kind = "signin" | "signup" | "password" | "email";

/**
 * Per-route limits (@fastify/rate-limit, in Redis when REDIS_URL is set so every instance counts
 * together). The answer is the one error format with the server's message (spec section 8: the
 * sign-up page shows it); the forgot-password form expects 401 instead of 429.
 */
export function rateLimit(config: Config, kind: Kind, status?: number) {
  const max = {
    signin: config.RATE_LIMIT_SIGNIN_MAX,
    signup: config.RATE_LIMIT_SIGNUP_MAX,
    password: config.RATE_LIMIT_PASSWORD_MAX,
    email: config.RATE_LIMIT_EMAIL_MAX,
  }[kind];
  return {
    max,
    timeWindow: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    keyGenerator: (request: FastifyRequest) => `${kind}:${request.ip}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
      new AppError(
        "RateLimitException",
        "You have sent too many requests. Please slow down and try again in {after}.",
        { status, params: { after: context.after } },
      ),
  };
}
