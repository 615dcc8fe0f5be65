import { createHash, timingSafeEqual } from "node:crypto";
import type { ErrorResponse } from "@salelink/contracts";
import { z } from "zod";

/** The tags the API sends (apps/api catalogue/revalidate.ts): `link:<token>`, `creator:<id|handle>`. */
export const revalidateBodySchema = z.object({
  tags: z
    .array(z.string().regex(/^(link|creator):[A-Za-z0-9_-]{1,64}$/))
    .min(1)
    .max(500),
});

/** Compares digests, so neither the length nor the content of the secret leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The one error format (decision 002). */
const fail = (statusCode: number, error: ErrorResponse["error"], message: string) =>
  Response.json({ statusCode, error, message } satisfies ErrorResponse, { status: statusCode });

/**
 * POST /api/revalidate, called by the API after a creator's edit: drops the cached buyer pages that
 * read the tagged API answers. Kept free of Next.js imports so it can be unit-tested.
 */
export async function handleRevalidate(
  request: Request,
  deps: { secret: string; revalidate: (tag: string) => void },
): Promise<Response> {
  if (!deps.secret) {
    return fail(503, "InternalServerErrorException", "Revalidation is not configured.");
  }
  const header = request.headers.get("authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  if (!given || !sameSecret(given, deps.secret)) {
    return fail(401, "UnauthorizedException", "Invalid credentials.");
  }
  const parsed = revalidateBodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return fail(400, "ValidationException", 'Expected { tags: ["link:…" | "creator:…"] }, at most 500.');
  }
  const tags = [...new Set(parsed.data.tags)];
  for (const tag of tags) deps.revalidate(tag);
  return Response.json({ revalidated: tags.length });
}
