/**
 * Maintenance, enforced where the request lands (decision 022). While it is on, a page asked for by
 * anyone but an admin is answered here, before Next.js runs: people get a redirect to /maintenance
 * (no page content), crawlers a 503 with Retry-After. While it is off, /maintenance sends to /. The
 * pages everyone keeps (sign-in, payments, orders) are listed once, in isMaintenanceExempt.
 *
 * Cost: the switch is polled from the API every `pollMs` and kept in memory, so while it is off (the
 * usual case) a request pays one string comparison. While it is on, a request carrying a session
 * cookie is checked against GET /profile once per session per `pollMs`. A visitor sees a switch at
 * most `pollMs` plus the API's own cache (MAINTENANCE_CACHE_SECONDS) after it happens.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isBot } from "@salelink/contracts/bots";
import { isMaintenanceExempt } from "@salelink/contracts/maintenance-exempt";

export type MaintenanceGateOptions = {
  /** The API as this server reaches it. */
  apiUrl: string;
  /** How often the switch is read from the API; also how long a session's role is remembered. */
  pollMs: number;
  /** How long an API call may take before it counts as failed. */
  timeoutMs?: number;
  /** Most sessions whose role is remembered at once (oldest forgotten first). */
  sessionCacheSize?: number;
};

export type MaintenanceGate = {
  /** Answers the request itself, or calls `next` (synchronously whenever maintenance is off). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** Reads the switch from the API now. */
  refresh(): Promise<void>;
  /** Reads the switch now, then every `pollMs` until stop(). */
  start(): Promise<void>;
  stop(): void;
  readonly on: boolean;
};

/** Seconds a crawler is asked to wait: maintenance is short, and a 503 kept too long hurts indexing. */
export const RETRY_AFTER_SECONDS = 300;
const SESSION_COOKIE = "sid";
/** A session token as the API issues it; anything else is not forwarded to the API. */
const sessionToken = /^[\w.~+/=-]{1,512}$/;

export function maintenanceGate(options: MaintenanceGateOptions): MaintenanceGate {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 2_000;
  const sessionCacheSize = options.sessionCacheSize ?? 10_000;
  let on = false;
  let polling: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const sessions = new Map<string, { admin: Promise<boolean>; until: number }>();

  async function read(): Promise<void> {
    try {
      const res = await fetch(`${apiUrl}/maintenance`, { signal: AbortSignal.timeout(timeoutMs) });
      const status = res.ok ? ((await res.json()) as { maintenance?: unknown }) : null;
      on = status?.maintenance === true;
    } catch {
      // Spec section 8: a failed maintenance check counts as no maintenance.
      on = false;
    }
    if (!on) sessions.clear();
  }

  function refresh(): Promise<void> {
    // One call at a time: a slow API is not asked again before it answers.
    polling ??= read().finally(() => {
      polling = null;
    });
    return polling;
  }

  /** Whether the session is an admin's; concurrent requests of one session share one API call. */
  function isAdmin(sid: string): Promise<boolean> {
    const now = Date.now();
    const known = sessions.get(sid);
    if (known && known.until > now) return known.admin;
    const admin = fetch(`${apiUrl}/profile`, {
      headers: { cookie: `${SESSION_COOKIE}=${sid}` },
      signal: AbortSignal.timeout(timeoutMs),
    })
      .then(async (res) => res.ok && ((await res.json()) as { role?: unknown }).role === "admin")
      .catch(() => false);
    sessions.delete(sid);
    sessions.set(sid, { admin, until: now + options.pollMs });
    if (sessions.size > sessionCacheSize) {
      const oldest = sessions.keys().next().value;
      if (oldest !== undefined) sessions.delete(oldest);
    }
    return admin;
  }

  function handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    if (!on) {
      if ((path === "/maintenance" || path === "/maintenance/") && isRead(req)) redirect(res, "/");
      else next();
      return;
    }
    if (!isRead(req) || !isPage(path) || isMaintenanceExempt(path)) {
      next();
      return;
    }
    const sid = sessionOf(req.headers.cookie);
    if (!sid) {
      refuse(req, res);
      return;
    }
    void isAdmin(sid).then((admin) => {
      if (admin) next();
      else refuse(req, res);
    });
  }

  return {
    handle,
    refresh,
    async start() {
      await refresh();
      timer ??= setInterval(() => void refresh(), options.pollMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    get on() {
      return on;
    },
  };
}

/** Pages are read with GET or HEAD; other methods go to route handlers (e.g. /api/revalidate). */
const isRead = (req: IncomingMessage) => req.method === "GET" || req.method === "HEAD";

/**
 * Pages, as opposed to assets and route handlers: Next.js's files (/_next/, /__nextjs… in
 * development), /api/…, and any path whose last segment has an extension (/env.json, /icon.svg,
 * /favicon.ico, /robots.txt, /sitemap.xml) pass. No page path has a dot in its last segment.
 */
function isPage(path: string): boolean {
  if (path.startsWith("/_next/") || path.startsWith("/__") || path.startsWith("/api/")) return false;
  return !path.slice(path.lastIndexOf("/")).includes(".");
}

function sessionOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return sessionToken.test(value) ? value : null;
  }
  return null;
}

/** People are sent to /maintenance; crawlers are told to come back (the page itself would be indexed). */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  if (!isBot(req.headers["user-agent"])) {
    redirect(res, "/maintenance");
    return;
  }
  const body = "Service Unavailable: maintenance in progress\n";
  res.statusCode = 503;
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Temporary (307) and never cached: the switch may change at any moment. */
function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 307;
  res.setHeader("Location", location);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", 0);
  res.end();
}
