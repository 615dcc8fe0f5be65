import { QueryClient } from "@tanstack/react-query";

/**
 * The dashboards' client cache. A failed read shows its error and retry button at once, as the
 * screens always did (no silent retries), and a tab regaining focus does not re-read every list
 * (a screen is read again when it mounts, or when a write invalidates it).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}
