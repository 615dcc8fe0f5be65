import type { Metadata } from "next";
import { CreatorView, creatorMetadata, getCreatorPage } from "@/features/creator-page/creator-view.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/buyer/buyer.css";

type Props = { params: Promise<{ locale: string; id: string }> };

/**
 * The creator page's second address (spec section 2); its canonical URL is /c/{id}.
 * Cached (ISR): rendered on the first visit of each creator (by id or handle), then served from the
 * cache for 300 s or until the API revalidates the `creator:<id|handle>` tag after an edit.
 */
export const revalidate = 300;
export const generateStaticParams = async (): Promise<{ id: string }[]> => [];

export async function generateMetadata(props: Props): Promise<Metadata> {
  const locale = await pageLocale(props.params);
  return creatorMetadata(locale, (await props.params).id);
}

export default async function AppCreatorPage(props: Props) {
  const locale = await pageLocale(props.params);
  return <CreatorView locale={locale} page={await getCreatorPage((await props.params).id)} area="app" />;
}
