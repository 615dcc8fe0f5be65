"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { api } from "@/lib/api.ts";

/** The list as read for one key: a page of another key's list is never mixed in. */
interface Loaded<K, T, C, X> {
  key: K;
  items: T[];
  nextCursor: C | null;
  extra: X | undefined;
}

/** `path?limit=…&cursor=…&query`: the address of one page of a cursor-paged list. */
export const pageUrl = (path: string, limit: number, cursor: string | number | null, query = ""): string =>
  `${path}?limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}${query ? `&${query}` : ""}`;

/** How an item is told apart from another: its `id` unless the list says otherwise. */
type ItemIdentity<T> = T extends { id: string | number }
  ? { idOf?: (item: T) => string | number }
  : { idOf: (item: T) => string | number };

/**
 * A cursor-paged list read from the API, newest first: the first page, then "load more" pages
 * appended. `items` is null while the first page of the current key is on its way (a list read for
 * another key is never shown); `failed` says the first page failed, `moreFailed` a later one.
 */
export function usePagedList<K extends string, T extends object, C extends string | number, X = undefined>({
  schema,
  key,
  url,
  refresh,
  alongside,
  idOf,
}: ItemIdentity<T> & {
  /** The page's contract: its items (each with an id) and the next page's cursor. */
  schema: z.ZodType<{ items: T[]; nextCursor: C | null }>;
  /** What the list is of (a filter, a query): a new one reads the list again; null, not known yet: nothing is read. */
  key: K | null;
  /** The address of a page of the list of `key`: the first when `cursor` is null. */
  url: (key: K, cursor: C | null) => string;
  /** Changing it reads the list again, the one on screen staying until the new one comes. */
  refresh?: unknown;
  /** What the screen needs besides the list, read with the first page: the list shows when both came. */
  alongside?: (signal?: AbortSignal) => Promise<X>;
}) {
  const [loaded, setLoaded] = useState<Loaded<K, T, C, X> | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  // The latest of what the screen passed: it need not keep these stable between renders.
  const latest = useRef({ schema, url, alongside });
  useEffect(() => {
    latest.current = { schema, url, alongside };
  });
  const identify: (item: T) => string | number =
    (idOf as ((item: T) => string | number) | undefined) ??
    ((item) => (item as T & { id: string | number }).id);

  const load = useCallback((of: K, signal?: AbortSignal) => {
    setFailed(false);
    setMoreFailed(false);
    const { schema, url, alongside } = latest.current;
    Promise.all([api(url(of, null), { schema, signal }), alongside?.(signal)])
      .then(([page, extra]) => setLoaded({ key: of, items: page.items, nextCursor: page.nextCursor, extra }))
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `refresh` is the reason to read the list again.
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    load(key, controller.signal);
    return () => controller.abort();
  }, [key, load, refresh]);

  const current = loaded !== null && loaded.key === key ? loaded : null;

  async function loadMore() {
    if (current === null || current.nextCursor === null) return;
    const from = current;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await api(url(from.key, from.nextCursor), { schema });
      setLoaded((now) => {
        if (now === null || now.key !== from.key) return now;
        // An item added meanwhile is on the first page already: never list one twice.
        const known = new Set(now.items.map(identify));
        const added = page.items.filter((item) => !known.has(identify(item)));
        return { ...now, items: [...now.items, ...added], nextCursor: page.nextCursor };
      });
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  return {
    items: current?.items ?? null,
    nextCursor: current?.nextCursor ?? null,
    /** What `alongside` answered, with the first page. */
    extra: current?.extra,
    failed,
    loadingMore,
    moreFailed,
    /** Reads the first page again (a retry, or after a change the screen cannot apply itself). */
    reload: () => {
      if (key !== null) load(key);
    },
    loadMore,
    /** Changes the items read (one created, saved or removed); `of` is the key they were read for. */
    setItems: (update: (items: T[], of: K) => T[]) =>
      setLoaded((now) => now && { ...now, items: update(now.items, now.key) }),
  };
}
