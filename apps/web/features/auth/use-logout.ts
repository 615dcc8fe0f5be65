"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { useAuth } from "./auth-provider.tsx";

/** Spec section 9: the logout toast waits 500 ms, until the home page is shown. */
export const LOGOUT_TOAST_DELAY_MS = 500;

/** Spec section 4: logout posts, clears the user, goes to "/", then shows a toast. */
export function useLogout(): () => Promise<void> {
  const { leave } = useAuth();
  const t = useTranslations("auth");
  return useCallback(async () => {
    try {
      await api("/auth/logout", {
        method: "POST",
        schema: () => import("@salelink/contracts/auth").then((m) => m.messageResponseSchema),
      });
    } catch (err) {
      console.warn("logout failed", err);
    }
    leave("/");
    setTimeout(() => toast.success(t("loggedOut")), LOGOUT_TOAST_DELAY_MS);
  }, [leave, t]);
}
