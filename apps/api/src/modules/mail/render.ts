import type { Locale } from "@salelink/contracts";
import { escapeHtml, fill, type PluralMessage, pickPlural, type Values } from "./format.ts";
import { htmlLayout, type LayoutContent, textLayout } from "./layout.ts";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };
import fr from "./messages/fr.json" with { type: "json" };
import { type MailTemplate, type MailTemplateParams, mailParamsSchemas } from "./templates.ts";

export const PRODUCT_NAME = "Salelink";

/** English is the reference; the compiler checks the other two have every key of it. */
export type Catalogue = typeof en;
export const catalogues: Record<Locale, Catalogue> = { en, fr, es };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A catalogue message with the values of its placeholders, not yet filled in. */
interface Line {
  message: string;
  values?: Values;
}

interface Content {
  subject: Line;
  preview: Line;
  heading: Line;
  body: Line[];
  action?: { label: Line; url: string };
  notes: Line[];
  /**
   * Why this address gets the mail: an account's (the default), a purchase's (receipts, refunds;
   * buyers need no account), or an invitation's (the invitee may have none).
   */
  reason?: "account" | "purchase" | "invitation";
}

type Builder<K extends MailTemplate> = (
  messages: Catalogue,
  params: MailTemplateParams[K],
  locale: Locale,
) => Content;

const line = (message: string, values?: Values): Line => ({ message, values });
const expiry = (message: PluralMessage, hours: number, locale: Locale) =>
  line(pickPlural(message, hours, locale), { hours });

const builders: { [K in MailTemplate]: Builder<K> } = {
  "verify-email": ({ "verify-email": m }, params) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body)],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.ignore)],
  }),
  "reset-password": ({ "reset-password": m }, params, locale) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body)],
    action: { label: line(m.action), url: params.url },
    notes: [expiry(m.expires, params.expiresInHours, locale), line(m.ignore)],
  }),
  "delete-account": ({ "delete-account": m }, params, locale) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body)],
    action: { label: line(m.action), url: params.url },
    notes: [expiry(m.expires, params.expiresInHours, locale), line(m.ignore)],
  }),
  "order-receipt": ({ "order-receipt": m }, params) => {
    const values = { title: params.title, creator: params.creator, amount: params.amount };
    return {
      subject: line(m.subject, values),
      preview: line(m.preview, values),
      heading: line(m.heading),
      body: [line(m.body, values)],
      action: { label: line(m.action), url: params.url },
      notes: [line(m.keep), line(m.library, { libraryUrl: params.libraryUrl })],
      reason: "purchase",
    };
  },
  "order-refunded": ({ "order-refunded": m }, params) => {
    const values = { title: params.title, amount: params.amount };
    return {
      subject: line(m.subject, values),
      preview: line(m.preview, values),
      heading: line(m.heading),
      body: [line(m.body, values)],
      notes: [line(m.access)],
      reason: "purchase",
    };
  },
  "order-unfulfilled": ({ "order-unfulfilled": m }, params) => {
    const values = { title: params.title, amount: params.amount };
    return {
      subject: line(m.subject, values),
      preview: line(m.preview, values),
      heading: line(m.heading),
      body: [line(m[params.reason], values), line(m.body, values)],
      notes: [line(m.notice)],
      reason: "purchase",
    };
  },
  "link-removed": ({ "link-removed": m }, params) => ({
    subject: line(m.subject, { title: params.title }),
    preview: line(m.preview, { title: params.title }),
    heading: line(m.heading),
    body: [line(m.body, { title: params.title }), line(m.reason, { reason: params.reason })],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.buyers)],
  }),
  "purchases-link": ({ "purchases-link": m }, params, locale) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body)],
    action: { label: line(m.action), url: params.url },
    notes: [expiry(m.expires, params.expiresInHours, locale), line(m.ignore)],
    reason: "purchase",
  }),
  "partner-invitation": ({ "partner-invitation": m }, params, locale) => {
    const values = { creator: params.creator, rate: params.rate };
    return {
      subject: line(m.subject, values),
      preview: line(m.preview, values),
      heading: line(m.heading),
      body: [line(m.body, values)],
      action: { label: line(m.action), url: params.url },
      notes: [
        line(pickPlural(m.expires, params.expiresInDays, locale), { days: params.expiresInDays }),
        line(m.ignore),
      ],
      reason: "invitation",
    };
  },
  "password-changed": ({ "password-changed": m }) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body)],
    notes: [line(m.notice)],
  }),
};

/**
 * Renders one e-mail in the account's language: the subject, a plain-text and an HTML version.
 * The params are checked again here, so a caller that skipped the job's schema still cannot put a
 * javascript: link in a button.
 */
export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  params: MailTemplateParams[T],
): RenderedMail {
  const checked = mailParamsSchemas[template].parse(params) as MailTemplateParams[T];
  const messages = catalogues[locale];
  const content = builders[template](messages, checked, locale);
  const layout = messages.layout;

  const lay = (encode: (s: string) => string): LayoutContent => {
    const f = (l: Line) => fill(l.message, { product: PRODUCT_NAME, ...l.values }, locale, encode);
    return {
      locale,
      product: encode(PRODUCT_NAME),
      subject: f(content.subject),
      preview: f(content.preview),
      heading: f(content.heading),
      greeting: f(line(layout.greeting)),
      body: content.body.map(f),
      action: content.action && {
        label: f(content.action.label),
        url: encode(content.action.url),
        hint: f(line(layout.linkHint)),
      },
      notes: content.notes.map(f),
      signature: f(line(layout.signature)),
      footer: f(
        line(
          content.reason === "purchase"
            ? layout.footerPurchase
            : content.reason === "invitation"
              ? layout.footerInvitation
              : layout.footer,
        ),
      ),
    };
  };
  const plain = (s: string) => s;
  return {
    subject: fill(
      content.subject.message,
      { product: PRODUCT_NAME, ...content.subject.values },
      locale,
      plain,
    ),
    text: textLayout(lay(plain)),
    html: htmlLayout(lay(escapeHtml)),
  };
}
