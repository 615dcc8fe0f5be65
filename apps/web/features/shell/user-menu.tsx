"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { useLogout } from "@/features/auth/use-logout.ts";
import { useHydrated } from "@/lib/use-hydrated.ts";

export function UserMenu() {
  const t = useTranslations("nav");
  const { user, authChecked } = useAuth();
  const logout = useLogout();
  const hydrated = useHydrated();
  if (!hydrated || !authChecked) return <span className="user-menu-placeholder" aria-hidden="true" />;
  if (!user) {
    return (
      <Link className="btn btn-primary btn-sm" href="/signin">
        {t("signIn")}
      </Link>
    );
  }
  return (
    <div className="user-menu">
      <Link className="btn btn-ghost btn-sm" href="/account">
        {t("dashboard")}
      </Link>
      <span className="user-email" title={user.email}>
        {user.email}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout()}>
        {t("signOut")}
      </button>
    </div>
  );
}
