"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { isReferralToken, storeReferral } from "@/lib/referral.ts";

/**
 * Spec section 2: `ref`, `emailToken` and `deletionToken` are read on any page. The affiliate
 * token is kept (last click wins) and its click reported; the two account tokens are handled by
 * their own features. Issue 20: a partner's `via` code is kept the same way (a list, newest first)
 * and its click reported; a malformed one is ignored without a word (features/partners/follow-via.ts).
 */
export function QueryParams() {
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on every navigation.
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const ref = query.get("ref");
    if (ref && isReferralToken(ref)) {
      storeReferral(ref);
      // Loaded only when a page carries `?ref=`: the report stays out of every first load (decision
      // 009). The visitor did nothing, so a failure (even of the chunk) is not shown.
      import("@/features/affiliates/report-click.ts")
        .then((report) => report.reportVisit(ref))
        .catch(() => undefined);
    }
    const via = query.get("via");
    // The same for `?via=`, checked and kept by its own chunk: the shell stays within its budget.
    if (via) {
      import("@/features/partners/follow-via.ts")
        .then((follow) => follow.followVia(via))
        .catch(() => undefined);
    }
  }, [pathname]);
  return null;
}
