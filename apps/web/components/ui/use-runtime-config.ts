"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { queryKeys } from "@/lib/query-keys.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";

/** The run-time settings (`/env.json`): read once per page load, never stale. */
export const runtimeConfigQuery = queryOptions({
  queryKey: queryKeys.runtimeConfig,
  queryFn: runtimeConfig,
  staleTime: Number.POSITIVE_INFINITY,
});

/** The API's base address, for links the browser follows itself (exports, media); null until known. */
export function useApiUrl(): string | null {
  return useQuery(runtimeConfigQuery).data?.apiUrl ?? null;
}
