import { type NextRequest, NextResponse } from "next/server";
import { isBot } from "./lib/bots.ts";
import { contentSecurityPolicy, storageOrigin } from "./lib/content-security-policy.ts";
import { isKnownRoute } from "./lib/routes.ts";
import { serverEnv } from "./lib/server-env.ts";

/**
 * Built once per server from the run-time settings (one build serves every environment, so the
 * origins cannot be baked into next.config's headers). No nonce: pages stay prerendered (decision 015).
 */
const csp = contentSecurityPolicy({
  apiPublicUrl: serverEnv.apiPublicUrl,
  analyticsSrc: serverEnv.analyticsId ? serverEnv.analyticsSrc : null,
  chatWidgetSrc: serverEnv.chatWidgetSrc || null,
  stripe: serverEnv.paymentProvider === "stripe",
  turnstile: serverEnv.botCheck.kind === "turnstile",
  storageOrigin: storageOrigin(serverEnv.storage),
  development: serverEnv.development,
});

/**
 * Every page gets the Content-Security-Policy. Crawlers asking for a page that does not exist get
 * the bare status instead of the error page (spec section 2).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  if (isBot(request.headers.get("user-agent")) && !(await isKnownRoute(request.nextUrl.pathname))) {
    return new NextResponse("Not Found", {
      status: 404,
      headers: { "content-type": "text/plain", "content-security-policy": csp },
    });
  }
  const response = NextResponse.next();
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  // Documents only: scripts, styles and /env.json need no policy of their own.
  matcher: ["/((?!_next/static|_next/image|env\\.json|icon\\.svg).*)"],
};
