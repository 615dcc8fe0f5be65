import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "./locale-switcher.tsx";
import { ThemeSwitcher } from "./theme-switcher.tsx";
import { UserMenu } from "./user-menu.tsx";

export async function SiteHeader() {
  const t = await getTranslations("nav");
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link href="/" className="brand" aria-label={t("home")}>
          {/* The letter comes from CSS: as text, it made the visible label "S Salelink", which the
              link's accessible name does not contain (WCAG 2.5.3, label in name). */}
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Salelink</span>
        </Link>
        <nav className="main-nav" aria-label={t("main")}>
          <Link href="/affiliate">{t("affiliate")}</Link>
          <Link href="/blog">{t("blog")}</Link>
        </nav>
        <div className="header-tools">
          <LocaleSwitcher />
          <ThemeSwitcher />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
