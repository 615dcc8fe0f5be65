import type { Locale } from "@salelink/contracts";
import { escapeHtml, fill, linkifyHtml, type PluralMessage, pickPlural, type Values } from "./format.ts";
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
  /** Its http(s) addresses become links in the HTML version. */
  links?: boolean;
}

interface Content {
  subject: Line;
  preview: Line;
  heading: Line;
  body: Line[];
  action?: { label: Line; url: string };
  notes: Line[];
  /** Someone's own words (a creator's update), after the body: paragraphs, links made clickable. */
  text?: string;
  /** Instead of the product team's. */
  signature?: Line;
  /**
   * Why this address gets the mail: an account's (the default), a purchase's (receipts, refunds;
   * buyers need no account), an invitation's (the invitee may have none), or a creator's update
   * (`footer` names the creator).
   */
  reason?: "account" | "purchase" | "invitation" | "update";
  footer?: Values;
}

type Builder<K extends MailTemplate> = (
  messages: Catalogue,
  params: MailTemplateParams[K],
  locale: Locale,
) => Content;

const line = (message: string, values?: Values): Line => ({ message, values });

/** A notice about the account from our team (suspended, reinstated): what happened, why, what next. */
const accountNotice = (
  m: Catalogue["account-suspended"],
  params: MailTemplateParams["account-suspended"],
): Content => ({
  subject: line(m.subject),
  preview: line(m.preview),
  heading: line(m.heading),
  body: [line(m.body), line(m.reason, { reason: params.reason })],
  action: { label: line(m.action), url: params.url },
  notes: [line(m.next)],
});
const expiry = (message: PluralMessage, hours: number, locale: Locale) =>
  line(pickPlural(message, hours, locale), { hours });

const builders: { [K in MailTemplate]: Builder<K> } = {
  "buyer-update": ({ "buyer-update": m }, params) => {
    const creator = { creator: params.creator };
    return {
      subject: line(m.subject, { subject: params.subject }),
      preview: line(m.preview, creator),
      heading: line(m.heading, { subject: params.subject }),
      body: [line(m.intro, creator)],
      text: params.body,
      notes: [{ ...line(m.unsubscribe, { ...creator, url: params.url }), links: true }],
      signature: line(m.signature, creator),
      reason: "update",
      footer: creator,
    };
  },
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
      preview: line(params.partial ? m.previewPartial : m.preview, values),
      heading: line(params.partial ? m.headingPartial : m.heading),
      body: [
        line(params.partial ? m.bodyPartial : m.body, values),
        ...(params.reason ? [line(m.reason, { reason: params.reason })] : []),
      ],
      notes: [line(params.partial ? m.accessPartial : m.access)],
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
  "sale-notification": ({ "sale-notification": m }, params, locale) => {
    const first = { title: params.title, amount: params.amount };
    const more = params.count - 1 - params.others.length;
    const action = { label: line(m.action), url: params.url };
    const notes = [line(m.settings, { settingsUrl: params.settingsUrl })];
    if (params.count === 1) {
      return {
        subject: line(m.subject, first),
        preview: line(m.preview, first),
        heading: line(m.heading),
        body: [line(m.body, first)],
        action,
        notes,
      };
    }
    const values = { count: params.count, totals: params.totals };
    return {
      subject: line(pickPlural(m.subjectMany, params.count, locale), values),
      preview: line(pickPlural(m.previewMany, params.count, locale), values),
      heading: line(m.headingMany),
      body: [
        line(pickPlural(m.bodyMany, params.count, locale), values),
        ...[first, ...params.others].map((sale) => line(m.item, sale)),
        ...(more > 0 ? [line(pickPlural(m.more, more, locale), { more })] : []),
      ],
      action,
      notes,
    };
  },
  "sales-digest": ({ "sales-digest": m }, params, locale) => {
    const values = { count: params.count, totals: params.totals };
    return {
      subject: line(m.subject, values),
      preview: line(pickPlural(m.preview, params.count, locale), values),
      heading: line(m.heading),
      body: [
        line(pickPlural(m.body, params.count, locale), values),
        ...(params.links.length > 0 ? [line(m.top)] : []),
        ...params.links.map((l) => line(pickPlural(m.item, l.sales, locale), l)),
      ],
      action: { label: line(m.action), url: params.url },
      notes: [line(m.settings, { settingsUrl: params.settingsUrl })],
    };
  },
  "payout-held": ({ "payout-held": m }, params) => ({
    subject: line(m.subject, { amount: params.amount }),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [line(m.body, { amount: params.amount }), ...params.rules.map((rule) => line(m.rules[rule]))],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.next)],
  }),
  "payout-failed": ({ "payout-failed": m }, params) => ({
    subject: line(m.subject, { amount: params.amount }),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [
      line(m.body, { amount: params.amount }),
      line(params.byOperator ? m.reasonOperator : m.reason, { reason: params.reason }),
    ],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.next)],
  }),
  "debt-incurred": ({ "debt-incurred": m }, params) => ({
    subject: line(m.subject, { amount: params.amount }),
    preview: line(m.preview),
    heading: line(m.heading, { amount: params.amount }),
    body: [line(m.causes[params.cause]), line(m.body, { amount: params.amount })],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.next)],
  }),
  "dispute-opened": ({ "dispute-opened": m }, params) => ({
    subject: line(m.subject, { title: params.title }),
    preview: line(m.preview, { amount: params.amount }),
    heading: line(m.heading),
    body: [
      line(m.body, { title: params.title, amount: params.amount }),
      ...(params.dueBy ? [line(m.dueBy, { dueBy: params.dueBy })] : []),
      line(m.evidence),
    ],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.next)],
  }),
  "payout-schedule-blocked": ({ "payout-schedule-blocked": m }, params) => ({
    subject: line(m.subject),
    preview: line(m.preview),
    heading: line(m.heading),
    body: [
      line(m.body),
      ...params.blocked.map((b) => line(m.blockers[b.code], b.currency ? { currency: b.currency } : {})),
    ],
    action: { label: line(m.action), url: params.url },
    notes: [line(m.next)],
  }),
  "account-suspended": ({ "account-suspended": m }, params) => accountNotice(m, params),
  "account-reinstated": ({ "account-reinstated": m }, params) => accountNotice(m, params),
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
    const html = encode === escapeHtml;
    const f = (l: Line) =>
      l.links && html
        ? linkifyHtml(fill(l.message, { product: PRODUCT_NAME, ...l.values }, locale, (s) => s))
        : fill(l.message, { product: PRODUCT_NAME, ...l.values }, locale, encode);
    const own = (content.text ?? "")
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .map((p) => (html ? linkifyHtml(p) : p));
    return {
      locale,
      product: encode(PRODUCT_NAME),
      subject: f(content.subject),
      preview: f(content.preview),
      heading: f(content.heading),
      greeting: f(line(layout.greeting)),
      body: [...content.body.map(f), ...own],
      action: content.action && {
        label: f(content.action.label),
        url: encode(content.action.url),
        hint: f(line(layout.linkHint)),
      },
      notes: content.notes.map(f),
      signature: f(content.signature ?? line(layout.signature)),
      footer: f(
        line(
          content.reason === "purchase"
            ? layout.footerPurchase
            : content.reason === "invitation"
              ? layout.footerInvitation
              : content.reason === "update"
                ? layout.footerUpdate
                : layout.footer,
          content.footer,
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
