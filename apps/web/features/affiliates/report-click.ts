import type { ClickBody } from "@salelink/contracts/affiliates";
import { runtimeConfig } from "@/lib/runtime-config.ts";

/*
 * The click report of spec section 3 (PATCH /campaigns/clicks/{token}, body { token }). Loaded with
 * `import()` by the shell only when a page's address carries `?ref=`, so it is never in a page's first
 * load; it therefore stays free of zod and sonner too (the 204 answer has nothing to parse).
 */

/** Tokens reported during this page load: React may run the shell's effect twice. */
const reported = new Set<string>();

/**
 * Reports one click; true when the API answered with success (an unknown token is answered the
 * same way, so a visitor never learns which tokens exist).
 */
export async function reportClick(token: string): Promise<boolean> {
  try {
    const { apiUrl } = await runtimeConfig();
    const body: ClickBody = { token };
    const res = await fetch(`${apiUrl}/campaigns/clicks/${encodeURIComponent(token)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** The visitor did not act: at most once per token per page load, and a failure is not shown. */
export function reportVisit(token: string): void {
  if (reported.has(token)) return;
  reported.add(token);
  void reportClick(token);
}
