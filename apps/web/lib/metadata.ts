import type { Locale } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import { serverEnv } from "./server-env.ts";

const ogLocale: Record<Locale, string> = { en: "en_US", fr: "fr_FR", es: "es_ES" };
export const siteUrl = serverEnv.siteUrl;

/** Title, description, Open Graph and Twitter tags of a public page. */
export function pageMetadata(params: {
  locale: Locale;
  title: string;
  description: string;
  path: string;
  type?: "website" | "article";
  publishedTime?: string;
}): Metadata {
  return {
    title: params.title,
    description: params.description,
    alternates: { canonical: params.path },
    openGraph: {
      title: params.title,
      description: params.description,
      url: params.path,
      siteName: "Salelink",
      locale: ogLocale[params.locale],
      type: params.type ?? "website",
      ...(params.publishedTime ? { publishedTime: params.publishedTime } : {}),
    },
    twitter: { card: "summary", title: params.title, description: params.description },
  };
}
