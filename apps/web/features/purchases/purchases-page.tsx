import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

export type PurchasesPageProps = { params: Promise<{ locale: string }> };
type Texts = { title: string; lead: string; path: string };

/** The buyer's library pages: private to whoever holds the link, never indexed, no referrer sent. */
export async function purchasesMetadata({ params }: PurchasesPageProps, texts: Texts): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "purchases" });
  return {
    ...pageMetadata({ locale, title: t(texts.title), description: t(texts.lead), path: texts.path }),
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

/** A buyer's library page: its title and lead, then its client island with the library's texts. */
export async function PurchasesPage({
  params,
  texts,
  wide = false,
  children,
}: PurchasesPageProps & { texts: Texts; wide?: boolean; children: ReactNode }) {
  await pageLocale(params);
  const t = await getTranslations("purchases");
  return (
    <main className={`container section purchases ${wide ? "" : "narrow"}`}>
      <h1>{t(texts.title)}</h1>
      <p className="lead">{t(texts.lead)}</p>
      <ClientMessages namespaces={["purchases", "invoices"]}>{children}</ClientMessages>
    </main>
  );
}
