"use client";

import { type QueryKey, useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import type { z } from "zod";
import { api } from "@/lib/api.ts";

/**
 * One resource read from the API through the cache (`key` from `lib/query-keys.ts`), in the shape the
 * screens show; `path` null: not known yet, nothing is read.
 */
export function useApiQuery<T extends z.ZodType>(
  queryKey: QueryKey,
  path: string | null,
  schema: T | (() => Promise<T>),
) {
  return useQueryState<z.infer<T>>(
    useQuery({
      queryKey,
      enabled: path !== null,
      queryFn: ({ signal }) => api(path as string, { schema, signal }),
    }),
  );
}

/**
 * A query's states as the screens show them: `data` null while it comes, `failed` once it failed
 * (not while a retry runs, which shows "loading" again), `reload` for the retry button (stable), and
 * `updatedAt`, which changes with every answer read.
 */
export function useQueryState<D>(query: {
  data: D | undefined;
  isError: boolean;
  isFetching: boolean;
  dataUpdatedAt: number;
  refetch: () => Promise<unknown>;
}) {
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: query.data ?? null,
    failed: query.isError && !query.isFetching,
    reload,
    updatedAt: query.dataUpdatedAt,
  };
}
