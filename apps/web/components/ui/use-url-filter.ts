"use client";

import { useEffect, useState } from "react";

/**
 * A list filter kept in the address (`?param=value`) for a reload or a shared link; the default
 * needs no query. The filter is null until read from the address (only the browser knows it: the
 * page is rendered statically), so nothing is read for a filter about to be replaced.
 */
export function useUrlFilter<F extends string>(
  param: string,
  isFilter: (value: string | null) => value is F,
  fallback: F,
): [F | null, (next: F) => void] {
  const [filter, setFilter] = useState<F | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, from the address the page opened with.
  useEffect(() => {
    const value = new URLSearchParams(window.location.search).get(param);
    setFilter(isFilter(value) ? value : fallback);
  }, []);

  function choose(next: F) {
    setFilter(next);
    window.history.replaceState(
      window.history.state,
      "",
      `${window.location.pathname}${next === fallback ? "" : `?${param}=${encodeURIComponent(next)}`}`,
    );
  }

  return [filter, choose];
}
