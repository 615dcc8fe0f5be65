import { isLocale, type Locale } from "@salelink/contracts/locales";
import { notFound } from "next/navigation";
import { setRequestLocale } from "next-intl/server";

/** Reads the [locale] segment of a page and enables static rendering for it. */
export async function pageLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return locale;
}
