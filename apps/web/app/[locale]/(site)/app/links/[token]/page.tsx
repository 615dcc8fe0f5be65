import type { Metadata } from "next";
import { LinkView, linkMetadata } from "@/features/buyer/link-view.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/buyer/buyer.css";

type Props = { params: Promise<{ locale: string; token: string }> };

/**
 * The purchase view's second address (spec section 2); its canonical URL is /v/{token}.
 * Cached (ISR): no token is known at build time, so each page is rendered on its first visit, then
 * served from the cache for 300 s (PUBLIC_PAGE_REVALIDATE_SECONDS) or until the API revalidates its tag.
 */
export const revalidate = 300;
export const generateStaticParams = async (): Promise<{ token: string }[]> => [];

export async function generateMetadata(props: Props): Promise<Metadata> {
  const locale = await pageLocale(props.params);
  return linkMetadata(locale, (await props.params).token);
}

export default async function AppLinkPage(props: Props) {
  const locale = await pageLocale(props.params);
  return <LinkView locale={locale} token={(await props.params).token} area="app" />;
}
