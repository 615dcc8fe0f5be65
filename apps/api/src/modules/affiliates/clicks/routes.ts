import { clickBodySchema, clickParamsSchema } from "@salelink/contracts";
import { isBot } from "@salelink/contracts/bots";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { validation } from "../../../lib/errors.ts";
import { type AddCounters, ClickBuffer } from "./buffer.ts";
import { addClickCounters } from "./queries.ts";
import { MemoryClickStore } from "./store/memory.ts";
import { RedisClickStore } from "./store/redis.ts";
import type { ClickStore } from "./store/types.ts";
import { CampaignTokens, type TokenLookup } from "./tokens.ts";
import { visitorKeys } from "./visitor.ts";

export interface ClickDeps {
  db: Db;
  config: Config;
  /** Shared by every instance when REDIS_URL is set: dedup and counts across instances. */
  redis?: Redis;
  /** Prefix of the Redis keys (tests isolate themselves with it). */
  namespace: string;
}

/** Tokens held in memory at most; a flood of random tokens pushes out the oldest. */
const maxCachedTokens = 10_000;

/** Log levels at which Fastify's two lines per request are off already. */
const quietLevels: ReadonlySet<Config["LOG_LEVEL"]> = new Set(["fatal", "error", "warn", "silent"]);

/** helmet's Strict-Transport-Security, as every other answer of the API carries it (app.ts). */
const hsts = "max-age=31536000; includeSubDomains";

/** What a click counter counts for: its store's keys, its table, its tokens' lookup, its route's name. */
export interface ClickCounterOptions {
  /** Prefix of the store's keys under the deps' namespace (campaigns and partners apart). */
  keys: string;
  add: AddCounters;
  lookup?: TokenLookup;
  route: string;
}

/**
 * A click counter (decision 033): the dedup store (memory, or Redis shared by every instance), the
 * buffer writing its counts in batches, the tokens held in memory, and what a click route needs to
 * answer on the hot path. Campaigns' `?ref=` clicks and partners' `?via=` clicks each have one.
 * The hot path touches neither the database nor a log: tokens come from memory, clicks go to the
 * buffer. It also skips what a click does not need of the global plugins: no session is looked up
 * (no `auth` rule), no per-request logger, no document security headers.
 */
export function clickCounter(app: FastifyInstance, deps: ClickDeps, options: ClickCounterOptions) {
  const { db, config } = deps;
  const namespace = options.keys === "" ? deps.namespace : `${deps.namespace}:${options.keys}`;
  const store: ClickStore = deps.redis
    ? new RedisClickStore(deps.redis, {
        namespace,
        recoverAfterMs: Math.max(300_000, 10 * config.CLICK_FLUSH_MS),
        allowance: config.CLICK_ADDRESS_ALLOWANCE,
      })
    : new MemoryClickStore({
        maxVisitorsPerHour: config.CLICK_DEDUP_MAX_VISITORS,
        allowance: config.CLICK_ADDRESS_ALLOWANCE,
        onOverflow: (max) =>
          app.log.warn({ max }, "click dedup full for this hour: repeat visits may count again"),
      });
  const buffer = new ClickBuffer(store, db, {
    intervalMs: config.CLICK_FLUSH_MS,
    log: app.log,
    add: options.add,
  });
  const tokens = new CampaignTokens(db, {
    ttlMs: config.CLICK_TOKEN_CACHE_MS,
    maxEntries: maxCachedTokens,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const visitor = visitorKeys(config.appSecret);

  buffer.start();
  // After the server stopped taking requests: what was counted reaches the database before exit.
  app.addHook("onClose", () => buffer.close());

  /** Counts the visit; a promise only when the store answers with one (Redis). */
  const record = (id: string | null, ip: string, userAgentHeader: string | undefined) => {
    if (id === null) return undefined;
    const userAgent = userAgentHeader ?? "";
    // No user agent at all is a script, not a browser: counted apart with the bots.
    const bot = userAgent === "" || isBot(userAgent);
    const outcome = store.record(id, visitor(ip, userAgent), bot, Date.now());
    return outcome instanceof Promise ? outcome : undefined;
  };
  // The click's own logger, made once: a child per request (Fastify's default) costs more than the
  // click itself, and at info level Fastify would log two lines per click. Errors still log here.
  const clickLog = app.log.child(
    { route: options.route },
    quietLevels.has(config.LOG_LEVEL) ? {} : { level: "warn" },
  );

  return {
    /** The route options every click route shares (see above). */
    routeOptions: {
      // A click changes no one's data: it is counted during maintenance too.
      config: { maintenance: "allow" as const },
      // An empty answer to a script's fetch: helmet's headers are about documents (framing,
      // sniffing, policies) and helmet rebuilds its middleware on every request. Only HSTS, which
      // is about the host, is kept (decision 033).
      helmet: false as const,
      childLoggerFactory: () => clickLog,
    },
    /**
     * Answers 204 and counts the visit through `token`, once `check` (the route's own validation, if
     * any) passed; HSTS is on the answer either way. Not async: a cached token and the memory store
     * answer within this call, with no promise.
     */
    count(token: string, request: FastifyRequest, reply: FastifyReply, check?: () => void) {
      reply.header("strict-transport-security", hsts);
      check?.();
      reply.code(204);
      const known = tokens.peek(token);
      const counted =
        known === undefined
          ? tokens.resolve(token).then((id) => record(id, request.ip, request.headers["user-agent"]))
          : record(known, request.ip, request.headers["user-agent"]);
      if (counted === undefined) return reply.send();
      return counted.then(() => reply.send());
    },
  };
}

/**
 * `PATCH /campaigns/clicks/{token}`: a visit through a share link (spec section 3). Anyone may call
 * it, signed in or not. Every well-formed call gets the same empty 204, counted or not (unknown or
 * archived token, a repeat visit within the hour, a bot, a visit past its address's allowance), so
 * the answer tells nothing about tokens, nor about what is filtered.
 */
export const clickRoutes: FastifyPluginAsyncZod<ClickDeps> = async (app, deps) => {
  const counter = clickCounter(app, deps, {
    keys: "",
    add: addClickCounters,
    route: "PATCH /campaigns/clicks/:token",
  });
  app.patch(
    "/campaigns/clicks/:token",
    {
      ...counter.routeOptions,
      schema: {
        tags: ["campaigns"],
        summary: "Report a visit through a campaign's share link (204 whether counted or not)",
        params: clickParamsSchema,
        body: clickBodySchema,
        // Documented as what it is: no content, counted or not.
        response: { 204: z.undefined().describe("No content, whether the visit was counted or not") },
      },
    },
    (request, reply) => {
      const { token } = request.params;
      return counter.count(token, request, reply, () => {
        if (request.body.token !== token) {
          throw validation({ token: ["The token must be the one in the address."] });
        }
      });
    },
  );
};
