import Link from "next/link";
import { getTranslations } from "next-intl/server";

export async function SiteFooter() {
  const t = await getTranslations("footer");
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <p>© 2026 Salelink · {t("tagline")}</p>
        <nav aria-label={t("legal")}>
          <Link href="/purchases">{t("purchases")}</Link>
          <Link href="/legal/privacy">{t("privacy")}</Link>
          <Link href="/legal/terms">{t("terms")}</Link>
          <Link href="/legal/cookies">{t("cookies")}</Link>
          <Link href="/affiliate">{t("affiliate")}</Link>
          <Link href="/blog">{t("blog")}</Link>
        </nav>
      </div>
    </footer>
  );
}
