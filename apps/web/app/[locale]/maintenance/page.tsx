import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { MaintenanceNotice } from "@/features/shell/maintenance-notice.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "maintenance" });
  return { title: t("title"), robots: { index: false } };
}

/** Spec section 2: the maintenance page has no layout. */
export default async function MaintenancePage({ params }: Props) {
  await pageLocale(params);
  const t = await getTranslations("maintenance");
  return (
    <main className="maintenance-page">
      <div className="brand-mark brand-mark-lg" aria-hidden="true">
        S
      </div>
      <h1>{t("title")}</h1>
      <MaintenanceNotice />
    </main>
  );
}
