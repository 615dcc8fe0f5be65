import { type Locale, locales } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getLegalPage, legalSlugs } from "@/lib/content.ts";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string; slug: string }> };

export const dynamicParams = false;

export async function generateStaticParams() {
  const all = await Promise.all(
    locales.map(async (locale: Locale) => (await legalSlugs(locale)).map((slug) => ({ locale, slug }))),
  );
  return all.flat();
}

async function load(props: Props) {
  const locale = await pageLocale(props.params);
  const { slug } = await props.params;
  const page = await getLegalPage(locale, slug);
  if (!page) notFound();
  return { locale, page };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { locale, page } = await load(props);
  return pageMetadata({
    locale,
    title: page.title,
    description: page.description,
    path: `/legal/${page.slug}`,
  });
}

export default async function LegalPage(props: Props) {
  const { locale, page } = await load(props);
  const t = await getTranslations("legal");
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  return (
    <main className="container section article">
      <h1>{page.title}</h1>
      <p className="muted">{t("updated", { date: date.format(new Date(page.updated)) })}</p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from our own repository, rendered at build. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: page.html }} />
    </main>
  );
}
