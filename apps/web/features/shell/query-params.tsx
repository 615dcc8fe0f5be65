"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";
import { storeReferral } from "@/lib/referral.ts";

/**
 * Spec section 2: `ref`, `emailToken` and `deletionToken` are read on any page. The affiliate
 * token is kept (last click wins); the two account tokens are handled by their own features.
 */
export function QueryParams() {
  const pathname = usePathname();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on every navigation.
  useEffect(() => {
    const ref = new URLSearchParams(window.location.search).get("ref");
    if (ref) storeReferral(ref);
  }, [pathname]);
  return null;
}
