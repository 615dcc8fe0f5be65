"use client";

import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { useAuth } from "./auth-provider.tsx";

const loadMessageSchema = () => import("@salelink/contracts/auth").then((m) => m.messageResponseSchema);

/** Each token is spent once per page load, even when effects run twice. */
const handled = new Set<string>();

function takeParam(name: string): string | null {
  const url = new URL(window.location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  // The token leaves the address bar (and the history) before anything else happens.
  url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  return value;
}

/**
 * Spec section 2: `emailToken` (e-mail verification) and `deletionToken` (account deletion) work on
 * any page; the e-mails link to the home page with them.
 */
export function AccountTokens() {
  const t = useTranslations("tokens");
  const pathname = usePathname();
  const { refresh, leave } = useAuth();

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again on every navigation.
  useEffect(() => {
    const emailToken = takeParam("emailToken");
    if (emailToken && !handled.has(emailToken)) {
      handled.add(emailToken);
      api(`/auth/verify/email/${encodeURIComponent(emailToken)}`, {
        method: "POST",
        schema: loadMessageSchema,
      })
        .then(() => {
          toast.success(t("emailVerified"));
          void refresh();
        })
        .catch((err: unknown) => {
          // Spec section 8: the server's message, or a generic one.
          toast.error(err instanceof ApiError && err.body ? err.body.message : t("error"));
        });
    }
    const deletionToken = takeParam("deletionToken");
    if (deletionToken && !handled.has(deletionToken)) {
      handled.add(deletionToken);
      api(`/profile/delete/${encodeURIComponent(deletionToken)}`, {
        method: "DELETE",
        schema: loadMessageSchema,
      })
        .then(() => {
          leave("/");
          toast.success(t("accountDeleted"));
        })
        .catch((err: unknown) => {
          toast.error(err instanceof ApiError && err.body ? err.body.message : t("error"));
        });
    }
  }, [pathname]);

  return null;
}
