import "server-only";
import {
  creatorPageSchema,
  handleSchema,
  linkTokenSchema,
  publicLinkSchema,
} from "@salelink/contracts/catalogue";
import { notFound } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { serverEnv } from "@/lib/server-env.ts";

/**
 * How long a buyer page may be served from Next's cache without an edit. Edits refresh it at once:
 * the API calls /api/revalidate with the tags below. Route files repeat the number as a literal
 * (`export const revalidate` must be statically analysable).
 */
export const PUBLIC_PAGE_REVALIDATE_SECONDS = 300;

export const linkTag = (token: string) => `link:${token}`;
export const creatorTag = (idOrHandle: string) => `creator:${idOrHandle.toLowerCase()}`;

/**
 * A cached GET of the API: no cookie, no header of the visitor, so the page stays static. A 404 is
 * the page's 404; any other failure throws (the error page, and ISR keeps serving the last good page).
 */
async function getPublic<T extends z.ZodType>(path: string, tag: string, schema: T): Promise<z.infer<T>> {
  const res = await fetch(`${serverEnv.apiInternalUrl}${path}`, {
    headers: { accept: "application/json" },
    next: { revalidate: PUBLIC_PAGE_REVALIDATE_SECONDS, tags: [tag] },
  });
  if (res.status === 404) notFound();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return schema.parse(await res.json());
}

/** GET /public/links/:token; a malformed token is a 404 without asking the API. */
export const getPublicLink = cache(async (token: string) => {
  if (!linkTokenSchema.safeParse(token).success) notFound();
  return getPublic(`/public/links/${encodeURIComponent(token)}`, linkTag(token), publicLinkSchema);
});

const creatorRefSchema = z.union([z.uuid(), handleSchema]);

/** GET /creators/:idOrHandle, by profile id (the spec's /c/{id}) or by handle. */
export const getCreatorPage = cache(async (idOrHandle: string) => {
  const ref = creatorRefSchema.safeParse(idOrHandle);
  if (!ref.success) notFound();
  const key = ref.data.toLowerCase();
  return getPublic(`/creators/${encodeURIComponent(key)}`, creatorTag(key), creatorPageSchema);
});

/** Media paths are relative to the API base as browsers reach it. */
export const mediaUrl = (path: string) => `${serverEnv.apiPublicUrl}${path}`;
