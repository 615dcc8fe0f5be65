import { z } from "zod";

export const locales = ["en", "fr", "es"] as const;
export const defaultLocale = "en";
export const localeSchema = z.enum(locales);
export type Locale = z.infer<typeof localeSchema>;

/** Name and lifetime of the language cookie (spec section 9: 365 days). */
export const localeCookieName = "NEXT_LOCALE";
export const localeCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}
