"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { isReferralToken, storeReferral } from "@/lib/referral.ts";

/**
 * Spec section 2: `ref`, `emailToken` and `deletionToken` are read on any page. The affiliate
 * token is kept (last click wins) and its click reported; the two account tokens are handled by
 * their own features.
 */
export function QueryParams() {
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on every navigation.
  useEffect(() => {
    const ref = new URLSearchParams(window.location.search).get("ref");
    if (!ref || !isReferralToken(ref)) return;
    storeReferral(ref);
    // Loaded only when a page carries `?ref=`: the report stays out of every first load (decision
    // 009). The visitor did nothing, so a failure (even of the chunk) is not shown.
    import("@/features/affiliates/report-click.ts")
      .then((report) => report.reportVisit(ref))
      .catch(() => undefined);
  }, [pathname]);
  return null;
}
