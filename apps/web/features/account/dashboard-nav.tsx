"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { useHydrated } from "@/lib/use-hydrated.ts";

const items = [
  { href: "/account", key: "home" },
  { href: "/account/links", key: "links" },
  { href: "/account/wallet", key: "wallet" },
  { href: "/account/payouts", key: "payouts" },
  { href: "/account/customers", key: "customers" },
  { href: "/account/updates", key: "updates" },
  { href: "/account/affiliates", key: "affiliates" },
  { href: "/account/partners", key: "partners" },
  { href: "/account/programmes", key: "programmes" },
  { href: "/account/promo-codes", key: "promoCodes" },
  { href: "/account/purchases", key: "purchases" },
  { href: "/account/portfolio", key: "portfolio" },
  { href: "/account/profiles", key: "profiles" },
  { href: "/account/settings", key: "settings" },
] as const;

/** The item's own page, or one under it (a programme under /account/programmes); home only itself. */
const isCurrent = (pathname: string, href: string) =>
  pathname === href || (href !== "/account" && pathname.startsWith(`${href}/`));

export function DashboardNav() {
  const t = useTranslations("account.nav");
  const pathname = usePathname();
  // The server renders this page for its locale's internal path; the current link is marked once
  // hydrated, from the address the browser shows (React keeps server attributes while hydrating).
  const hydrated = useHydrated();
  const { user } = useAuth();
  return (
    <nav className="dashboard-nav" aria-label={t("label")}>
      {items.map((item) => (
        <Link
          key={item.href}
          href={item.href}
          aria-current={hydrated && isCurrent(pathname, item.href) ? "page" : undefined}
        >
          {t(item.key)}
        </Link>
      ))}
      {user?.role === "admin" && <Link href="/admin/payouts">{t("admin")}</Link>}
    </nav>
  );
}
