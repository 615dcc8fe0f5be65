/** One page of a cursor-paged list as cached: its items, the next cursor, and what came with the first. */
export interface Page<T, C, X> {
  items: T[];
  nextCursor: C | null;
  extra: X | undefined;
}

/** `path?limit=…&cursor=…&query`: the address of one page of a cursor-paged list. */
export const pageUrl = (path: string, limit: number, cursor: string | number | null, query = ""): string =>
  `${path}?limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}${query ? `&${query}` : ""}`;

/**
 * The pages read so far as one list. An item added between two reads moves the later pages by one:
 * it is listed once, where it came first.
 */
export function mergePages<T, C, X>(
  pages: readonly Page<T, C, X>[],
  identify: (item: T) => string | number,
): Page<T, C, X> {
  const known = new Set<string | number>();
  const items: T[] = [];
  for (const page of pages)
    for (const item of page.items) {
      const id = identify(item);
      if (known.has(id)) continue;
      known.add(id);
      items.push(item);
    }
  return { items, nextCursor: pages.at(-1)?.nextCursor ?? null, extra: pages[0]?.extra };
}
