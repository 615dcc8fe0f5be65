import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { UnsubscribeCard } from "@/features/updates/unsubscribe-card.tsx";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/updates/updates.css";

type Props = {
  params: Promise<{ locale: string; token: string }>;
  searchParams: Promise<{ failed?: string }>;
};

/** Read at each visit: whether the buyer already left changes. */
export const dynamic = "force-dynamic";

/** A buyer's private link: never indexed, no referrer sent. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "unsubscribe" });
  return {
    ...pageMetadata({ locale, title: t("title"), description: t("lead"), path: "/unsubscribe" }),
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

/** The unsubscribe link of an update's e-mail (outside the dashboard: buyers need no account). */
export default async function Page({ params, searchParams }: Props) {
  await pageLocale(params);
  const { token } = await params;
  const t = await getTranslations("unsubscribe");
  return (
    <main className="container section narrow unsubscribe">
      <h1>{t("title")}</h1>
      <UnsubscribeCard token={token} failed={(await searchParams).failed === "1"} />
    </main>
  );
}
