import {
  currencySchema,
  localeSchema,
  payoutRiskRuleSchema,
  payoutScheduleBlockers,
  UPDATE_BODY_MAX,
  UPDATE_SUBJECT_MAX,
} from "@salelink/contracts";
import { z } from "zod";

/** Links in e-mails open a page of ours: never a javascript: or data: URL, whatever the caller passes. */
const linkSchema = z.url({ protocol: /^https?$/ }).max(2048);
/** A link's lifetime as the e-mail states it; the token's real expiry is checked where it is used. */
const expiresInHoursSchema = z
  .number()
  .int()
  .min(1)
  .max(24 * 30);

/** Every template and the values it needs; the job payload and renderMail are typed from these. */
export const mailParamsSchemas = {
  "verify-email": z.object({ url: linkSchema }),
  "reset-password": z.object({ url: linkSchema, expiresInHours: expiresInHoursSchema }),
  "delete-account": z.object({ url: linkSchema, expiresInHours: expiresInHoursSchema }),
  "password-changed": z.object({}),
  "order-receipt": z.object({
    url: linkSchema,
    /** The buyer's library page (`/purchases`): every purchase of the address, by e-mail. */
    libraryUrl: linkSchema,
    title: z.string().max(200),
    creator: z.string().max(100),
    /** Already formatted in the buyer's language ("€15.00"). */
    amount: z.string().max(40),
    /**
     * The order whose invoice is attached (issue 22): rendered when the e-mail is sent, found by the
     * order (issued in the transaction that queued the receipt), never carried in the job.
     */
    invoiceOf: z.uuid().optional(),
  }),
  "order-refunded": z.object({
    title: z.string().max(200),
    /** Already formatted in the buyer's language: this refund's amount. */
    amount: z.string().max(40),
    /** A part of the payment (issue 21): the order stays open. */
    partial: z.boolean().optional(),
    /** The creator's reason, when the creator refunded. */
    reason: z.string().max(500).optional(),
  }),
  /** A payment that went through for an order that could no longer be fulfilled: refunded in full. */
  "order-unfulfilled": z.object({
    title: z.string().max(200),
    /** Already formatted in the buyer's language. */
    amount: z.string().max(40),
    reason: z.enum(["sold-out", "promo-used-up"]),
  }),
  "link-removed": z.object({
    url: linkSchema,
    title: z.string().max(200),
    /** The moderator's note, as written: why the link was taken down. */
    reason: z.string().max(500),
  }),
  /** The one-time link to a buyer's library: every order paid with the address (issue 21). */
  "purchases-link": z.object({ url: linkSchema, expiresInHours: expiresInHoursSchema }),
  /**
   * A creator's update to their buyers (issue 21): their own subject and text, sent by the update's
   * batch job straight through the provider (never a mail.send job), with the unsubscribe page.
   */
  "buyer-update": z.object({
    url: linkSchema,
    subject: z.string().max(UPDATE_SUBJECT_MAX),
    body: z.string().max(UPDATE_BODY_MAX),
    creator: z.string().max(320),
  }),
  /** A creator's sales of one short window, in one e-mail (issue 21). */
  "sale-notification": z.object({
    count: z.number().int().min(1),
    /** The window's first sale, its amount already formatted in the creator's language. */
    title: z.string().max(200),
    amount: z.string().max(40),
    /** The next few sales of the window, when there were several. */
    others: z.array(z.object({ title: z.string().max(200), amount: z.string().max(40) })).max(10),
    /** One total per currency, already formatted and joined ("€20.00 and $5.00"). */
    totals: z.string().max(300),
    url: linkSchema,
    settingsUrl: linkSchema,
  }),
  /** A creator's sales of the last 24 hours, for those who chose the daily digest (issue 21). */
  "sales-digest": z.object({
    count: z.number().int().min(1),
    totals: z.string().max(300),
    /** The most sold links, each with its sales and formatted totals. */
    links: z
      .array(
        z.object({ title: z.string().max(200), sales: z.number().int().min(1), amount: z.string().max(300) }),
      )
      .max(10),
    url: linkSchema,
    settingsUrl: linkSchema,
  }),
  /** A creator invites someone into their partner programme (issue 20). */
  "partner-invitation": z.object({
    url: linkSchema,
    /** The creator's display name (or address when they have no public profile). */
    creator: z.string().max(320),
    /** The programme's default rate, already formatted in the recipient's language ("10%"). */
    rate: z.string().max(20),
    expiresInDays: z.number().int().min(1).max(365),
  }),
  /** A payout held by the risk rules for an operator's review, and why (issue 23). */
  "payout-held": z.object({
    /** Already formatted in the creator's language. */
    amount: z.string().max(40),
    rules: z.array(payoutRiskRuleSchema).min(1).max(10),
    url: linkSchema,
  }),
  /** A payout that failed: the provider's or the operator's reason, and what to do (issue 23). */
  "payout-failed": z.object({
    amount: z.string().max(40),
    reason: z.string().max(500),
    byOperator: z.boolean(),
    url: linkSchema,
  }),
  /**
   * A refund or a chargeback found the money already paid out (issue 32): what is now owed in that
   * currency (formatted in the debtor's language), why, and the page that explains it.
   */
  "debt-incurred": z.object({
    amount: z.string().max(40),
    cause: z.enum(["refund", "dispute", "dispute_fee"]),
    url: linkSchema,
  }),
  /**
   * A buyer's bank disputed one of the creator's sales (issue 32): what is held, until when the
   * bank takes evidence, and the sale's page where the creator reads it and adds a note.
   */
  "dispute-opened": z.object({
    title: z.string().max(200),
    amount: z.string().max(40),
    /** The evidence deadline, already formatted in the creator's language. */
    dueBy: z.string().max(60).optional(),
    url: linkSchema,
  }),
  /** A payout schedule that was due and could not pay: what is missing (issue 23). */
  "payout-schedule-blocked": z.object({
    blocked: z
      .array(z.object({ code: z.enum(payoutScheduleBlockers), currency: currencySchema.optional() }))
      .min(1)
      .max(10),
    url: linkSchema,
  }),
  /**
   * An admin suspended the account (issue 23): the operator's reason as written, and the next step;
   * its payouts and its links' sales stop until it is reinstated.
   */
  "account-suspended": z.object({ reason: z.string().max(500), url: linkSchema }),
  /** An admin reinstated the account: payouts and sales resume. */
  "account-reinstated": z.object({ reason: z.string().max(500), url: linkSchema }),
};

export type MailTemplate = keyof typeof mailParamsSchemas;
export type MailTemplateParams = { [K in MailTemplate]: z.input<(typeof mailParamsSchemas)[K]> };
export const mailTemplates = Object.keys(mailParamsSchemas) as MailTemplate[];

const recipient = { to: z.email().max(320), locale: localeSchema };

/** The payload of a `mail.send` job: who, which template in which language, and its values. */
export const mailJobPayloadSchema = z.discriminatedUnion("template", [
  z.object({ ...recipient, template: z.literal("verify-email"), params: mailParamsSchemas["verify-email"] }),
  z.object({
    ...recipient,
    template: z.literal("reset-password"),
    params: mailParamsSchemas["reset-password"],
  }),
  z.object({
    ...recipient,
    template: z.literal("delete-account"),
    params: mailParamsSchemas["delete-account"],
  }),
  z.object({
    ...recipient,
    template: z.literal("password-changed"),
    params: mailParamsSchemas["password-changed"],
  }),
  z.object({
    ...recipient,
    template: z.literal("order-receipt"),
    params: mailParamsSchemas["order-receipt"],
  }),
  z.object({
    ...recipient,
    template: z.literal("order-refunded"),
    params: mailParamsSchemas["order-refunded"],
  }),
  z.object({
    ...recipient,
    template: z.literal("order-unfulfilled"),
    params: mailParamsSchemas["order-unfulfilled"],
  }),
  z.object({
    ...recipient,
    template: z.literal("link-removed"),
    params: mailParamsSchemas["link-removed"],
  }),
  z.object({
    ...recipient,
    template: z.literal("partner-invitation"),
    params: mailParamsSchemas["partner-invitation"],
  }),
  z.object({
    ...recipient,
    template: z.literal("purchases-link"),
    params: mailParamsSchemas["purchases-link"],
  }),
  z.object({
    ...recipient,
    template: z.literal("sale-notification"),
    params: mailParamsSchemas["sale-notification"],
  }),
  z.object({
    ...recipient,
    template: z.literal("sales-digest"),
    params: mailParamsSchemas["sales-digest"],
  }),
  z.object({ ...recipient, template: z.literal("payout-held"), params: mailParamsSchemas["payout-held"] }),
  z.object({
    ...recipient,
    template: z.literal("payout-failed"),
    params: mailParamsSchemas["payout-failed"],
  }),
  z.object({
    ...recipient,
    template: z.literal("debt-incurred"),
    params: mailParamsSchemas["debt-incurred"],
  }),
  z.object({
    ...recipient,
    template: z.literal("dispute-opened"),
    params: mailParamsSchemas["dispute-opened"],
  }),
  z.object({
    ...recipient,
    template: z.literal("payout-schedule-blocked"),
    params: mailParamsSchemas["payout-schedule-blocked"],
  }),
  z.object({
    ...recipient,
    template: z.literal("account-suspended"),
    params: mailParamsSchemas["account-suspended"],
  }),
  z.object({
    ...recipient,
    template: z.literal("account-reinstated"),
    params: mailParamsSchemas["account-reinstated"],
  }),
]);

export type MailJobPayload = z.input<typeof mailJobPayloadSchema>;
