"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";

/** The admin console's sections; payouts first, the console of later issues grows here. */
const items = [{ href: "/admin/payouts", key: "payouts" }] as const;

export function AdminNav() {
  const t = useTranslations("admin.nav");
  const pathname = usePathname();
  return (
    <nav className="dashboard-nav admin-nav" aria-label={t("label")}>
      <p className="admin-nav-title">{t("title")}</p>
      {items.map((item) => (
        <Link key={item.href} href={item.href} aria-current={pathname === item.href ? "page" : undefined}>
          {t(item.key)}
        </Link>
      ))}
      <Link href="/account" className="admin-nav-back">
        {t("backToAccount")}
      </Link>
    </nav>
  );
}
