"use client";

import { type InfiniteData, type QueryKey, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/api.ts";
import { mergePages, type Page } from "./paged-items.ts";

export { pageUrl } from "./paged-items.ts";

/** How an item is told apart from another: its `id` unless the list says otherwise. */
type ItemIdentity<T> = T extends { id: string | number }
  ? { idOf?: (item: T) => string | number }
  : { idOf: (item: T) => string | number };

/**
 * A cursor-paged list read from the API, newest first: the first page, then "load more" pages
 * appended, cached under `[...queryKey, key]` (so a write elsewhere invalidates it by `queryKey`).
 * `items` is null while the first page of the current key is on its way (a list read for another key
 * is never shown); `failed` says the first page failed, `moreFailed` a later one.
 */
export function usePagedList<K extends string, T extends object, C extends string | number, X = undefined>({
  queryKey,
  schema,
  key,
  url,
  alongside,
  pollEvery,
  idOf,
}: ItemIdentity<T> & {
  /** The list's entry in `lib/query-keys.ts`: invalidating it reads the list again. */
  queryKey: QueryKey;
  /** The page's contract: its items (each with an id) and the next page's cursor. */
  schema: z.ZodType<{ items: T[]; nextCursor: C | null }>;
  /** What the list is of (a filter, a query): a new one reads the list again; null, not known yet: nothing is read. */
  key: K | null;
  /** The address of a page of the list of `key`: the first when `cursor` is null. */
  url: (key: K, cursor: C | null) => string;
  /** What the screen needs besides the list, read with the first page: the list shows when both came. */
  alongside?: (signal?: AbortSignal) => Promise<X>;
  /** While it answers a delay for the items read, the list is read again after it (awaiting a change). */
  pollEvery?: (items: T[]) => number | false;
}) {
  const queryClient = useQueryClient();
  const cacheKey = [...queryKey, key];
  const identify: (item: T) => string | number =
    (idOf as ((item: T) => string | number) | undefined) ??
    ((item) => (item as T & { id: string | number }).id);

  const query = useInfiniteQuery<
    Page<T, C, X>,
    Error,
    InfiniteData<Page<T, C, X>, C | null>,
    QueryKey,
    C | null
  >({
    queryKey: cacheKey,
    enabled: key !== null,
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (q) => {
      const read = q.state.data?.pages;
      return read && pollEvery ? pollEvery(mergePages(read, identify).items) : false;
    },
    queryFn: async ({ pageParam, signal }) => {
      const of = key as K;
      const cursor = pageParam as C | null;
      if (cursor !== null) return { ...(await api(url(of, cursor), { schema, signal })), extra: undefined };
      const [page, extra] = await Promise.all([api(url(of, null), { schema, signal }), alongside?.(signal)]);
      return { items: page.items, nextCursor: page.nextCursor, extra };
    },
  });

  const pages = key === null ? undefined : query.data?.pages;
  const merged = pages ? mergePages(pages, identify) : null;
  const loadingMore = query.isFetchingNextPage;

  return {
    items: merged?.items ?? null,
    nextCursor: merged?.nextCursor ?? null,
    /** What `alongside` answered, with the first page. */
    extra: merged?.extra,
    failed: query.isError && !query.isFetchNextPageError && !query.isRefetching,
    loadingMore,
    moreFailed: query.isFetchNextPageError && !loadingMore,
    /** Reads the list again (a retry, or after a change the screen cannot apply itself). */
    reload: () => {
      if (key !== null) void query.refetch();
    },
    loadMore: () => {
      if (merged?.nextCursor != null && !loadingMore) void query.fetchNextPage();
    },
    /** Changes the items read (one created, saved or removed); `of` is the key they were read for. */
    setItems: (update: (items: T[], of: K) => T[]) => {
      if (key === null) return;
      queryClient.setQueryData<InfiniteData<Page<T, C, X>, C | null>>(cacheKey, (data) => {
        if (!data) return data;
        const now = mergePages(data.pages, identify);
        // Kept as one page: the next "load more" goes on from the last cursor read.
        return {
          pages: [{ items: update(now.items, key), nextCursor: now.nextCursor, extra: now.extra }],
          pageParams: [null],
        };
      });
    },
  };
}
