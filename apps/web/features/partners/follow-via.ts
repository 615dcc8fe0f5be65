import { isPartnerCode, storePartnerVia } from "@/lib/partner-via.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";

/*
 * A visit through a partner link (`?via=`, issue 20): the code is kept (lib/partner-via.ts) and the
 * click reported with PATCH /programmes/clicks/{code} (no body, 204 whether counted or not). Loaded
 * with `import()` by the shell only when a page's address carries `?via=`, so it is never in a
 * page's first load; it stays free of zod and sonner for the same reason.
 */

/** Codes reported during this page load: React may run the shell's effect twice. */
const reported = new Set<string>();

/** The visitor did not act: a malformed code is ignored, a failure is never shown, one report per page load. */
export function followVia(code: string): void {
  if (!isPartnerCode(code)) return;
  storePartnerVia(code);
  if (reported.has(code)) return;
  reported.add(code);
  void runtimeConfig()
    .then(({ apiUrl }) =>
      fetch(`${apiUrl}/programmes/clicks/${encodeURIComponent(code)}`, {
        method: "PATCH",
        cache: "no-store",
      }),
    )
    .catch(() => undefined);
}
