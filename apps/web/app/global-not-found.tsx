import { negotiateLocale } from "@salelink/contracts/locale-negotiation";
import { isLocale, type Locale, localeCookieName } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { ErrorView } from "@/components/ui/error-view.tsx";
import { LOCALE_HEADER } from "@/lib/locale-rewrites.ts";
import SiteLayout from "./[locale]/(site)/layout.tsx";
import RootLayout from "./[locale]/layout.tsx";

/**
 * The 404 page of every URL no route matches, and of every page that finds its resource missing
 * (the web app's server answers those with this page too: server/not-found-page.ts). Next.js renders
 * it as a page of its own, not as the error boundary of the page that threw, so the whole document
 * (header, message, "Go back", footer) is in the HTML: a `notFound()` caught by `[locale]/not-found.tsx`
 * reaches the browser as an empty error shell that only JavaScript fills (vercel/next.js#62228).
 * It has no [locale] segment, so it reads the language our server negotiated for the request.
 */
async function notFoundLocale(): Promise<Locale> {
  const stated = (await headers()).get(LOCALE_HEADER);
  if (isLocale(stated)) return stated;
  // Without our server (`next dev`/`next start`): the same rules, cookie first.
  const cookie = (await cookies()).get(localeCookieName)?.value;
  if (isLocale(cookie)) return cookie;
  return negotiateLocale((await headers()).get("accept-language"));
}

export async function generateMetadata(): Promise<Metadata> {
  const locale = await notFoundLocale();
  const t = await getTranslations({ locale, namespace: "errors" });
  return { title: t("notFoundTitle"), icons: { icon: "/icon.svg" } };
}

export default async function GlobalNotFound() {
  const locale = await notFoundLocale();
  const params = Promise.resolve({ locale });
  const t = await getTranslations({ locale, namespace: "errors" });
  return (
    <RootLayout params={params}>
      <SiteLayout params={params}>
        <ErrorView status={404} message={t("notFound")} back={t("goBack")} />
      </SiteLayout>
    </RootLayout>
  );
}
