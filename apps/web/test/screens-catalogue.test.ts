import { describe, expect, it } from "vitest";
import { flatten, loadCatalogue } from "./catalogues.ts";

const load = loadCatalogue;

/**
 * Words that are the same in English and in the language: brand and product names, codes, the
 * languages' own names, and words both languages share. Anything else left identical to English is
 * an untranslated label (the Spanish wallet once said "Sandbox").
 */
const sameAsEnglish: Record<"fr" | "es", readonly string[]> = {
  fr: [
    "Blog",
    "Cookies",
    "English",
    "Français",
    "Español",
    "E-mail",
    "Portfolio",
    "Bio",
    "Avatar",
    "Code",
    "Code {code}",
    "image",
    "audio",
    "archive",
    "PDF",
    "Image",
    "Audio",
    "Archive",
    "Description",
    "Type",
    "Date",
    "Total",
    "IBAN",
    "BIC",
    "Maintenance",
    "Commission",
    "Action",
    "Note",
    "Admin",
    "Stripe",
    "Stripe Connect",
    "Veriff",
  ],
  es: [
    "Blog",
    "Cookies",
    "English",
    "Français",
    "Español",
    "Legal",
    "Error",
    "Avatar",
    "audio",
    "Audio",
    "PDF",
    "Total",
    "CVC",
    "IBAN",
    "BIC",
    "no",
    "No",
    "Stripe",
    "Stripe Connect",
    "Veriff",
  ],
};

/** A message with no words of its own ("{count} / {max}", "{title}") has nothing to translate. */
const hasWords = (message: string) => /\p{L}/u.test(message.replace(/\{[^{}]*\}/g, ""));

describe("no English left in the French and Spanish catalogues", () => {
  const english = flatten(load("en"));

  it.each(["fr", "es"] as const)("%s translates every label", (locale) => {
    const other = flatten(load(locale));
    const untranslated = [...english]
      .filter(([key, message]) => other.get(key) === message && hasWords(message))
      .filter(([, message]) => !sameAsEnglish[locale].includes(message))
      .map(([key, message]) => `${key}: ${message}`);
    expect(untranslated).toEqual([]);
  });
});
