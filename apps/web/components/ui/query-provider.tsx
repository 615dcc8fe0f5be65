"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { makeQueryClient } from "@/lib/query-client.ts";

/**
 * The client data cache of the dashboards (account area, admin console) only: the buyer pages render
 * on the server and must not load the library (decision 026).
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  // One cache per browser tab, kept across the section's pages; created once, not per render.
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
