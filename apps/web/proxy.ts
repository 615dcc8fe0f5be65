import { type NextRequest, NextResponse } from "next/server";
import { isBot } from "./lib/bots.ts";
import { isKnownRoute } from "./lib/routes.ts";

/**
 * Crawlers asking for a page that does not exist get the bare status instead of the error page
 * (spec section 2). Only requests whose user agent looks automated reach this function (see the
 * matcher): people pay nothing for it. The Content-Security-Policy is set by the web app's server
 * (server/main.ts, decision 017), on these answers too.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  if (isBot(request.headers.get("user-agent")) && !(await isKnownRoute(request.nextUrl.pathname))) {
    return new NextResponse("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
  }
  return NextResponse.next();
}

export const config = {
  matcher: [
    {
      source: "/((?!_next/|env\\.json|icon\\.svg).*)",
      // A cheap, broad pre-filter (matchers must be literals); isBot() decides precisely.
      has: [
        {
          type: "header",
          key: "user-agent",
          value:
            ".*(?:[Bb][Oo][Tt]|[Cc]rawl|[Ss]pider|[Ss]lurp|facebookexternalhit|[Ff]acebot|[Ee]mbedly|[Qq]uora|[Pp]interest|vkShare|W3C_Validator|WhatsApp|Telegram|Skype|Discord|[Ss]lack|Lighthouse|curl/|[Ww]get/|python-requests|Go-http-client|[Hh]ttp[Cc]lient|okhttp).*",
        },
      ],
    },
  ],
};
