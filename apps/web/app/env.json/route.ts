import type { RuntimeConfig } from "@/lib/runtime-config.ts";
import { serverEnv } from "@/lib/server-env.ts";

// Read at request time so one build serves every environment.
export const dynamic = "force-dynamic";

export function GET(): Response {
  const body: RuntimeConfig = {
    apiUrl: serverEnv.apiPublicUrl,
    analyticsSrc: serverEnv.analyticsId
      ? serverEnv.analyticsSrc.replace("{id}", encodeURIComponent(serverEnv.analyticsId))
      : null,
    analyticsId: serverEnv.analyticsId || null,
    chatWidgetSrc: serverEnv.chatWidgetSrc || null,
    referralDays: serverEnv.rules.affiliateCookieDays,
    botCheck: serverEnv.botCheck,
  };
  return Response.json(body, { headers: { "cache-control": "public, max-age=60" } });
}
