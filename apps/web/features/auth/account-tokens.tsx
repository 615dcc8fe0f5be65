"use client";

import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { toast } from "@/lib/toast.ts";
import { useAuth } from "./auth-provider.tsx";

/**
 * Spec section 2: `emailToken` and `deletionToken` are read on any page. What spends them is loaded
 * only when the address carries one, so it stays out of every page's first load (decision 009).
 */
export function AccountTokens() {
  const t = useTranslations("tokens");
  const pathname = usePathname();
  const auth = useAuth();

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on every navigation.
  useEffect(() => {
    if (!/[?&](emailToken|deletionToken)=/.test(window.location.search)) return;
    import("./spend-account-tokens.ts")
      .then((tokens) => tokens.spendAccountTokens(t, auth))
      .catch(() => toast.error(t("error")));
  }, [pathname]);

  return null;
}
