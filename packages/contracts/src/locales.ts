/* Kept free of zod: the browser's first load imports these (the schema is in locale-schema.ts). */

export const locales = ["en", "fr", "es"] as const;
export const defaultLocale = "en";
export type Locale = (typeof locales)[number];

/** Name and lifetime of the language cookie (spec section 9: 365 days). */
export const localeCookieName = "NEXT_LOCALE";
export const localeCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}
