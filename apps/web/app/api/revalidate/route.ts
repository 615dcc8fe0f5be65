import { revalidateTag } from "next/cache";
import { handleRevalidate } from "@/features/buyer/revalidate-handler.ts";
import { serverEnv } from "@/lib/server-env.ts";

/**
 * The API's cache refresh after an edit. `{ expire: 0 }`: the next visitor gets the new page, never
 * the stale one (the edit must show at once, and this is not a Server Action, so no updateTag).
 */
export function POST(request: Request): Promise<Response> {
  return handleRevalidate(request, {
    secret: serverEnv.revalidateSecret,
    revalidate: (tag) => revalidateTag(tag, { expire: 0 }),
  });
}
