import { defaultLocale, isLocale } from "@salelink/contracts/locales";
import { getRequestConfig } from "next-intl/server";

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = isLocale(requested) ? requested : defaultLocale;
  return { locale, messages: (await import(`../messages/${locale}.json`)).default };
});
