import type { Locale } from "@salelink/contracts";

export type Values = Record<string, string | number>;
/** A catalogue message that depends on a count, one text per plural category of the language. */
export type PluralMessage = { one: string; other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const PLACEHOLDER = /\{(\w+)\}/;

/**
 * Fills `{name}` placeholders. `encode` is applied to the message's own text and to each value
 * alike, so neither a translation nor a value can inject markup. A placeholder without a value
 * throws: an e-mail showing "{url}" is worse than a job that fails and says why.
 */
export function fill(message: string, values: Values, locale: Locale, encode: (s: string) => string): string {
  // split() with a capturing group alternates text and placeholder names: text, name, text, …
  const parts = message.split(PLACEHOLDER);
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return encode(part);
      const value = values[part];
      if (value === undefined) throw new Error(`Mail message has no value for {${part}}`);
      return encode(typeof value === "number" ? new Intl.NumberFormat(locale).format(value) : value);
    })
    .join("");
}

/** The placeholder names of a message, for the catalogue parity test. */
export function placeholders(message: string): string[] {
  return message
    .split(PLACEHOLDER)
    .filter((_, i) => i % 2 === 1)
    .sort();
}

/** The language's form for `count` (French "one" covers 0 and 1), falling back to "other". */
export function pickPlural(message: PluralMessage, count: number, locale: Locale): string {
  return message[new Intl.PluralRules(locale).select(count)] ?? message.other;
}

/** The http(s) links of a plain-text message, in order, each once (for the dev mail page). */
export function findLinks(text: string): string[] {
  // A sentence's closing punctuation is not part of the link it ends with.
  const links = (text.match(/https?:\/\/[^\s<>"']+/g) ?? []).map((link) => link.replace(/[.,;:!?)]+$/, ""));
  return [...new Set(links)];
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/**
 * Plain text to HTML: escaped, with its http(s) addresses as links (a sentence's closing
 * punctuation left outside) and its line breaks kept. For a sender's own words and for lines that
 * carry an address.
 */
export function linkifyHtml(text: string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const link = match[0].replace(/[.,;:!?)]+$/, "");
    const start = match.index;
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(link)}" target="_blank">${escapeHtml(link)}</a>`;
    last = start + link.length;
  }
  out += escapeHtml(text.slice(last));
  return out.replace(/\r?\n/g, "<br>\n");
}
