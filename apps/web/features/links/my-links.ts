import { type Link, linkListResponseSchema } from "@salelink/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Pages of 100 at most; a creator with more than this many links pages through them all. */
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

/** Every link of mine, newest first, following the list's cursor. */
export async function loadMyLinks(signal?: AbortSignal): Promise<Link[]> {
  const out: Link[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await api(`/links?limit=${PAGE_SIZE}${query}`, { schema: linkListResponseSchema, signal });
    out.push(...res.items);
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** Every link of mine through the cache (`queryKeys.myLinks`): pickers of other screens share it. */
export function useMyLinks() {
  return useQuery({ queryKey: queryKeys.myLinks, queryFn: ({ signal }) => loadMyLinks(signal) });
}
