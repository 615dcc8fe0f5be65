import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import { AppError } from "../../../lib/errors.ts";

/*
 * Counters in the rate-limit store the auth routes use (@fastify/rate-limit: in Redis when
 * REDIS_URL is set, so every instance counts together; in memory otherwise). Unlike a route's limit,
 * they count only what the caller says (a wrong promo code, a reservation), and can be read
 * without counting, so a right code is never refused because of the count alone.
 */

export interface SharedCounter {
  /** Seconds until the window ends when the count has reached its maximum; null while under it. */
  blockedFor(request: FastifyRequest): Promise<number | null>;
  /** Counts one; answers the seconds to wait when this one went past the maximum, else null. */
  hit(request: FastifyRequest): Promise<number | null>;
}

export function sharedCounter(
  app: FastifyInstance,
  options: { max: number; windowMs: number; key: (request: FastifyRequest) => string },
): SharedCounter {
  const limiter = app.createRateLimit({
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: options.key,
  });
  return {
    async blockedFor(request) {
      const result = await limiter(request, { increment: false });
      if (result.isAllowed || result.remaining > 0) return null;
      return Math.max(1, result.ttlInSeconds);
    },
    async hit(request) {
      const result = await limiter(request);
      if (result.isAllowed || !result.isExceeded) return null;
      return Math.max(1, result.ttlInSeconds);
    },
  };
}

/** The 429 of a limit counted in minutes, in the one error format, on the field it is about. */
export function tooManyAttempts(message: string, seconds: number, field?: string): AppError {
  const params = { minutes: Math.max(1, Math.ceil(seconds / 60)) };
  return new AppError("RateLimitException", message, {
    errors: field ? { [field]: [message] } : undefined,
    headers: { "retry-after": String(seconds) },
    params,
  });
}

const tokenCarrier = z.object({ token: z.string().max(256) });
/** The link a promo code was tried on: in the path (quote) or the body (checkout). */
const linkTokenOf = (request: FastifyRequest) =>
  tokenCarrier.safeParse(request.params).data?.token ??
  tokenCarrier.safeParse(request.body).data?.token ??
  "";

export interface PromoAttempts {
  /** Throws the 429 when this address, or this link, has had too many wrong codes lately. */
  assertAllowed(request: FastifyRequest): Promise<void>;
  /** Counts one wrong code for the address and the link. */
  failed(request: FastifyRequest): Promise<void>;
}

const promoMessage = "Too many wrong promo codes. Please try again in {minutes} min.";

function createPromoAttempts(app: FastifyInstance, config: Config): PromoAttempts {
  const windowMs = config.PROMO_FAILURES_WINDOW_SECONDS * 1000;
  const counters = [
    sharedCounter(app, {
      max: config.PROMO_FAILURES_PER_ADDRESS_MAX,
      windowMs,
      key: (request) => `promo-fail:ip:${request.ip}`,
    }),
    // Per link too: guesses spread over many addresses still meet this one.
    sharedCounter(app, {
      max: config.PROMO_FAILURES_PER_LINK_MAX,
      windowMs,
      key: (request) => `promo-fail:link:${linkTokenOf(request)}`,
    }),
  ];
  return {
    async assertAllowed(request) {
      for (const counter of counters) {
        const seconds = await counter.blockedFor(request);
        if (seconds !== null) throw tooManyAttempts(promoMessage, seconds, "promoCode");
      }
    },
    async failed(request) {
      for (const counter of counters) await counter.hit(request);
    },
  };
}

// @fastify/rate-limit gives each createRateLimit its own memory store: the quote and checkout routes
// (two plugins) must share one, or each path would allow its own round of guesses.
const perServer = new WeakMap<object, PromoAttempts>();

/** The wrong-promo-code limits of this server, one for the quote and checkout paths together. */
export function promoAttempts(app: FastifyInstance, config: Config): PromoAttempts {
  let attempts = perServer.get(app.server);
  if (!attempts) {
    attempts = createPromoAttempts(app, config);
    perServer.set(app.server, attempts);
  }
  return attempts;
}

/** A wrong code, as priceLink refuses one: counted; other errors (a paused link…) are not. */
export function isWrongPromoCode(error: unknown): boolean {
  return error instanceof AppError && error.exception === "ValidationException" && !!error.errors?.promoCode;
}
