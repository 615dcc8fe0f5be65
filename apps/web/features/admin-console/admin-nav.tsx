"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useHydrated } from "@/lib/use-hydrated.ts";

/** The admin console's sections. */
const items = [
  { href: "/admin", key: "overview" },
  { href: "/admin/reports", key: "reports" },
  { href: "/admin/accounts", key: "accounts" },
  { href: "/admin/orders", key: "orders" },
  { href: "/admin/payouts", key: "payouts" },
  { href: "/admin/debts", key: "debts" },
  { href: "/admin/disputes", key: "disputes" },
  { href: "/admin/vat", key: "vat" },
  { href: "/admin/identity", key: "identity" },
  { href: "/admin/maintenance", key: "maintenance" },
  { href: "/admin/referrals", key: "referrals" },
  { href: "/admin/audit", key: "audit" },
] as const;

export function AdminNav() {
  const t = useTranslations("admin.nav");
  const pathname = usePathname();
  // The server renders this page for its locale's internal path; the current link is marked once
  // hydrated, from the address the browser shows (React keeps server attributes while hydrating).
  const hydrated = useHydrated();
  return (
    <nav className="dashboard-nav admin-nav" aria-label={t("label")}>
      <p className="admin-nav-title">{t("title")}</p>
      {items.map((item) => (
        <Link
          key={item.href}
          href={item.href}
          aria-current={
            hydrated &&
            (pathname === item.href || (pathname.startsWith(`${item.href}/`) && item.href !== "/admin"))
              ? "page"
              : undefined
          }
        >
          {t(item.key)}
        </Link>
      ))}
      <Link href="/account" className="admin-nav-back">
        {t("backToAccount")}
      </Link>
    </nav>
  );
}
