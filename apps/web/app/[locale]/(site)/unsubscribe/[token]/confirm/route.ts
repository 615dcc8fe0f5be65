import { confirmUnsubscribe } from "@/features/updates/unsubscribe-api.ts";
import { serverEnv } from "@/lib/server-env.ts";

type Context = { params: Promise<{ locale: string; token: string }> };

/**
 * The unsubscribe page's button: a plain form's POST, so it works without JavaScript. Back to the
 * page (303: a GET), which then says the buyer is unsubscribed, or that it failed.
 */
export async function POST(_request: Request, context: Context): Promise<Response> {
  const { token } = await context.params;
  const done = await confirmUnsubscribe(token).catch(() => false);
  const page = new URL(`/unsubscribe/${encodeURIComponent(token)}`, serverEnv.siteUrl);
  if (!done) page.searchParams.set("failed", "1");
  return Response.redirect(page, 303);
}
