import { type Locale, locales } from "@salelink/contracts";
import { describe, expect, it } from "vitest";
import { escapeHtml, fill, findLinks, placeholders } from "../../src/modules/mail/format.ts";
import en from "../../src/modules/mail/messages/en.json" with { type: "json" };
import es from "../../src/modules/mail/messages/es.json" with { type: "json" };
import fr from "../../src/modules/mail/messages/fr.json" with { type: "json" };
import { renderMail } from "../../src/modules/mail/render.ts";
import {
  type MailTemplate,
  type MailTemplateParams,
  mailTemplates,
} from "../../src/modules/mail/templates.ts";

const url = "https://app.salelink.test/verify?token=abc123&lang=fr";
const params: MailTemplateParams = {
  "verify-email": { url },
  "reset-password": { url, expiresInHours: 2 },
  "delete-account": { url, expiresInHours: 24 },
  "password-changed": {},
  "order-receipt": {
    url,
    libraryUrl: "https://app.salelink.test/purchases",
    title: "Sunset pack",
    creator: "Ada & co",
    amount: "€15.00",
  },
  "order-refunded": { title: "Sunset pack", amount: "€15.00" },
  "order-unfulfilled": { title: "Sunset pack", amount: "€15.00", reason: "sold-out" },
  "link-removed": { url, title: "Sunset pack", reason: "A copyright claim & its proof" },
  "partner-invitation": { url, creator: "Ada & co", rate: "10%", expiresInDays: 7 },
  "purchases-link": { url, expiresInHours: 1 },
  "buyer-update": {
    url,
    subject: "New chapter & more",
    body: "Hello friends.\n\nA new chapter is out.",
    creator: "Ada & co",
  },
  "sale-notification": {
    url,
    settingsUrl: "https://app.salelink.test/account/settings",
    count: 1,
    title: "Sunset pack",
    amount: "€15.00",
    others: [],
    totals: "€15.00",
  },
  "sales-digest": {
    url,
    settingsUrl: "https://app.salelink.test/account/settings",
    count: 3,
    totals: "€45.00",
    links: [{ title: "Sunset pack", sales: 3, amount: "€45.00" }],
  },
  "account-suspended": { url, reason: "Chargebacks on several sales" },
  "account-reinstated": { url, reason: "Documents received" },
  "payout-held": { url, amount: "€1,500.00", rules: ["first_payout", "bank_account_changed"] },
  "payout-failed": { url, amount: "€15.00", reason: "Account closed & returned", byOperator: false },
  "payout-schedule-blocked": {
    url,
    blocked: [
      { code: "identity" },
      { code: "bank_account", currency: "GBP" },
      { code: "debt", currency: "EUR" },
    ],
  },
  "debt-incurred": { url, amount: "€75.00", cause: "refund" },
  "dispute-opened": { url, title: "Sunset pack", amount: "€15.00", dueBy: "5 December 2026" },
};

/** Every text of a catalogue by its dotted key: "reset-password.expires.one" → "…". */
function flatten(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") out.set(prefix, value);
  else if (value && typeof value === "object")
    for (const [key, child] of Object.entries(value))
      for (const [k, v] of flatten(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
  return out;
}

describe("the message catalogues", () => {
  const catalogues = { en: flatten(en), fr: flatten(fr), es: flatten(es) };

  it.each(["fr", "es"] as const)("%s has exactly the keys of en", (locale) => {
    expect([...catalogues[locale].keys()].sort()).toEqual([...catalogues.en.keys()].sort());
  });

  it.each(["fr", "es"] as const)("%s uses the same placeholders as en in every message", (locale) => {
    for (const [key, message] of catalogues.en)
      expect({ key, placeholders: placeholders(catalogues[locale].get(key) ?? "") }).toEqual({
        key,
        placeholders: placeholders(message),
      });
  });

  it("has no empty or untranslated-looking message", () => {
    for (const catalogue of Object.values(catalogues))
      for (const [key, message] of catalogue)
        expect({ key, empty: message.trim() === "" }).toEqual({ key, empty: false });
    // A French or Spanish subject equal to the English one was copied, not translated.
    // A subject that is only the sender's own words (an update's) has nothing to translate.
    for (const key of catalogues.en.keys())
      if (key.endsWith(".subject") && catalogues.en.get(key) !== "{subject}") {
        expect(catalogues.fr.get(key)).not.toBe(catalogues.en.get(key));
        expect(catalogues.es.get(key)).not.toBe(catalogues.en.get(key));
      }
  });
});

describe("renderMail", () => {
  const cases = locales.flatMap((locale) => mailTemplates.map((template) => [template, locale] as const));

  it.each(cases)("renders %s in %s: subject, text and HTML versions", (template, locale) => {
    const mail = renderMail(template, locale, params[template]);
    const messages = { en, fr, es }[locale][template];
    // Placeholders filled with the product's name and the template's own values.
    const values: Record<string, string> = { product: "Salelink" };
    for (const [key, value] of Object.entries(params[template])) values[key] = String(value);
    const filled = (message: string) =>
      message.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? `{${key}}`);
    expect(mail.subject).toBe(filled(messages.subject));
    expect(mail.subject).not.toMatch(/[{}<>]/);

    // The plain-text version: the heading, the body, and the bare link on its own line.
    expect(mail.text).toContain(filled(messages.heading));
    expect(mail.text).not.toMatch(/[{}]|<[a-z]/i);
    // The HTML version: a whole document in the account's language, named after the product.
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain(`<html lang="${locale}">`);
    expect(mail.html).toContain(`<title>${escapeHtml(mail.subject)}</title>`);
    expect(mail.html).toContain("Salelink");
    expect(mail.html).not.toContain("{");

    // Nothing to open: the password notice, and the refund (the order has nothing left to show).
    if (["password-changed", "order-refunded", "order-unfulfilled"].includes(template)) {
      expect(findLinks(mail.text)).toEqual([]);
      expect(mail.html).not.toContain("<a ");
    } else {
      expect(mail.text).toContain(`\n${url}\n`);
      // A receipt also says where every purchase of the address can be found again.
      // A sale e-mail says where its kind of e-mail is changed or turned off.
      const extra =
        template === "order-receipt"
          ? ["https://app.salelink.test/purchases"]
          : template === "sale-notification" || template === "sales-digest"
            ? ["https://app.salelink.test/account/settings"]
            : [];
      expect(findLinks(mail.text)).toEqual([url, ...extra]);
      // Escaped in the attribute and the visible fallback: a raw "&" is invalid HTML.
      expect(mail.html).toContain(`href="${url.replace("&", "&amp;")}"`);
      expect(mail.html).not.toContain(url);
    }
  });

  it("says why the address gets the mail: an account's, a purchase's or an invitation's", () => {
    const footer = (template: (typeof mailTemplates)[number]) =>
      renderMail(template, "en", params[template]).text.trimEnd().split("\n").at(-1);
    expect(footer("verify-email")).toBe(
      "You are receiving this e-mail because this address belongs to a Salelink account.",
    );
    // A buyer needs no account, nor does an invitee.
    for (const template of ["order-receipt", "order-refunded", "order-unfulfilled"] as const) {
      expect(footer(template)).toBe(
        "You are receiving this e-mail because this address was used for a purchase on Salelink.",
      );
    }
    expect(renderMail("partner-invitation", "fr", params["partner-invitation"]).text).toContain(
      "un créateur de Salelink a invité cette adresse",
    );
  });

  it("states the link's lifetime with the language's plural", () => {
    expect(renderMail("reset-password", "en", { url, expiresInHours: 1 }).text).toContain(
      "expires in 1 hour.",
    );
    expect(renderMail("reset-password", "en", { url, expiresInHours: 3 }).text).toContain(
      "expires in 3 hours.",
    );
    expect(renderMail("delete-account", "fr", { url, expiresInHours: 1 }).text).toContain("dans 1 heure.");
    expect(renderMail("delete-account", "fr", { url, expiresInHours: 48 }).text).toContain("dans 48 heures.");
    expect(renderMail("reset-password", "es", { url, expiresInHours: 1 }).text).toContain("en 1 hora.");
    expect(renderMail("reset-password", "es", { url, expiresInHours: 12 }).text).toContain("en 12 horas.");
    const invitation = { url, creator: "Ada", rate: "10 %" };
    expect(renderMail("partner-invitation", "fr", { ...invitation, expiresInDays: 1 }).text).toContain(
      "dans 1 jour.",
    );
    expect(renderMail("partner-invitation", "es", { ...invitation, expiresInDays: 7 }).text).toContain(
      "en 7 días.",
    );
  });

  it("escapes what it puts into the HTML, and only there", () => {
    const nasty = `https://app.salelink.test/r?t=1&x="><script>alert(1)</script>`;
    const mail = renderMail("reset-password", "en", { url: nasty, expiresInHours: 2 });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain(`x="`);
    expect(mail.html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.text).toContain(nasty);
    // The catalogue's own text goes through the same escaping as the values.
    expect(fill("<b>{product}</b> & co", { product: "A<B" }, "en", escapeHtml)).toBe(
      "&lt;b&gt;A&lt;B&lt;/b&gt; &amp; co",
    );
  });

  it("refuses a link that is not http(s) and a placeholder without a value", () => {
    for (const bad of ["javascript:alert(1)", "data:text/html,hi", "not a url"])
      expect(() => renderMail("verify-email", "en", { url: bad })).toThrow();
    expect(() => fill("Hello {name}", {}, "en", escapeHtml)).toThrow(/\{name\}/);
  });

  it("finds links without the punctuation that ends a sentence", () => {
    expect(findLinks("Go to https://a.test/x. Or (https://b.test/y), or https://a.test/x")).toEqual([
      "https://a.test/x",
      "https://b.test/y",
    ]);
  });
});

// Compile-time only: each template takes its own params and nothing else.
function typeChecks(locale: Locale, template: MailTemplate) {
  // @ts-expect-error reset-password needs its expiry
  renderMail("reset-password", locale, { url });
  // @ts-expect-error verify-email takes a url
  renderMail("verify-email", locale, {});
  return template;
}
void typeChecks;
