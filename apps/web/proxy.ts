import { maintenanceStatusSchema, profileSchema } from "@salelink/contracts";
import { localeCookieName } from "@salelink/contracts/locales";
import { type NextRequest, NextResponse } from "next/server";
import { isBot } from "./lib/bots.ts";
import { detectLocale } from "./lib/locale.ts";
import { isKnownRoute } from "./lib/routes.ts";

const apiUrl = process.env.API_INTERNAL_URL ?? "http://127.0.0.1:4000";
/** How long this web instance trusts its last maintenance answer. */
const MAINTENANCE_CACHE_MS = Number(process.env.WEB_MAINTENANCE_CACHE_MS ?? 5_000);
let maintenance: { on: boolean; until: number } = { on: false, until: 0 };

/** The maintenance switch; an unreachable API counts as "off", silently (spec section 8). */
async function maintenanceOn(): Promise<boolean> {
  if (maintenance.until > Date.now()) return maintenance.on;
  let on = false;
  try {
    const res = await fetch(`${apiUrl}/maintenance`, {
      cache: "no-store",
      signal: AbortSignal.timeout(1_000),
    });
    if (res.ok) on = maintenanceStatusSchema.parse(await res.json()).maintenance;
  } catch {
    on = false;
  }
  maintenance = { on, until: Date.now() + MAINTENANCE_CACHE_MS };
  return on;
}

async function isAdmin(request: NextRequest): Promise<boolean> {
  const cookie = request.headers.get("cookie");
  if (!cookie?.includes("sid=")) return false;
  try {
    const res = await fetch(`${apiUrl}/profile`, {
      headers: { cookie },
      cache: "no-store",
      signal: AbortSignal.timeout(1_500),
    });
    return res.ok && profileSchema.parse(await res.json()).role === "admin";
  } catch {
    return false;
  }
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;

  if (isBot(request.headers.get("user-agent")) && !(await isKnownRoute(pathname))) {
    return new NextResponse("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
  }

  const on = await maintenanceOn();
  if (on && pathname !== "/maintenance" && !(await isAdmin(request))) {
    return NextResponse.redirect(new URL("/maintenance", request.url), 307);
  }
  if (!on && pathname === "/maintenance") {
    return NextResponse.redirect(new URL("/", request.url), 307);
  }

  // URLs carry no locale: the page for the detected language is served from its own cache entry.
  const locale = detectLocale(
    request.cookies.get(localeCookieName)?.value,
    request.headers.get("accept-language"),
  );
  const target = request.nextUrl.clone();
  target.pathname = `/${locale}${pathname === "/" ? "" : pathname}`;
  // Next.js sets its own Vary on pages; a shared cache in front must key on NEXT_LOCALE and
  // Accept-Language itself (README, deployment).
  return NextResponse.rewrite(target);
}

export const config = {
  matcher: [
    "/((?!_next/|env\\.json|favicon\\.ico|icon\\.svg|robots\\.txt|sitemap\\.xml|.*\\.[a-zA-Z0-9]+$).*)",
  ],
};
