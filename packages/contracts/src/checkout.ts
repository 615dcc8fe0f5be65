import { z } from "zod";
import { emailSchema } from "./auth.ts";
import { currencySchema } from "./business-rules.ts";
import { linkTokenSchema } from "./catalogue.ts";
import { orderInvoiceSchema } from "./invoices.ts";
import { localeSchema } from "./locale-schema.ts";
import { partnerViaListSchema } from "./partners.ts";
import { fileKindSchema } from "./uploads.ts";
import { billingCountrySchema, vatNumberSchema, vatSchemeSchema } from "./vat.ts";

/*
 * Checkout, payments and orders (spec sections 2 and 7: `/stripe/checkout`, `/report`). Prices are
 * computed by the API; the client only names the link, the buyer's e-mail and a promo code.
 */

export const paymentProviders = ["sandbox", "stripe"] as const;
export const paymentProviderSchema = z.enum(paymentProviders);
export type PaymentProviderKind = z.infer<typeof paymentProviderSchema>;

export const orderStatuses = ["pending", "paid", "failed", "refunded"] as const;
export const orderStatusSchema = z.enum(orderStatuses);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** A sale's VAT as checkout and the order page show it (issue 22). */
export const checkoutVatSchema = z.object({
  scheme: vatSchemeSchema,
  /** The country whose VAT is charged (or whose rules exempt the sale); null before it is known. */
  country: z.string().nullable(),
  rateBps: z.number().int(),
  vatMinor: z.number().int(),
  /** The total less the VAT. */
  netMinor: z.number().int(),
  pricesIncludeVat: z.boolean(),
});
export type CheckoutVat = z.infer<typeof checkoutVatSchema>;

/** POST /stripe/checkout: starts a payment for a link. */
export const checkoutBodySchema = z.object({
  token: linkTokenSchema,
  email: emailSchema,
  promoCode: z.string().trim().max(64).optional(),
  locale: localeSchema,
  /** The partner codes the visitor followed (`?via=`), newest first: the creator's programme may attribute the sale. */
  via: partnerViaListSchema.optional(),
  /**
   * The buyer's billing country (issue 22): with the card's country, the evidence of where VAT is
   * due. Required when the link's price excludes VAT (the total depends on it).
   */
  billingCountry: billingCountrySchema.optional(),
  /** A business buyer: its VAT number (checked with VIES: reverse charge) and the invoice's details. */
  business: z
    .object({
      vatNumber: vatNumberSchema,
      name: z.string().trim().min(1).max(200),
      address: z.string().trim().max(500).optional(),
    })
    .optional(),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

export const checkoutResponseSchema = z.object({
  orderId: z.uuid(),
  /** Kept by the paying browser (session storage): with the order id, it reads the outcome. */
  checkoutSecret: z.string().min(32),
  provider: paymentProviderSchema,
  /** The provider's payment (Stripe: a PaymentIntent id; sandbox: its own id). */
  paymentId: z.string(),
  /** Stripe.js's client secret; absent for the sandbox. */
  clientSecret: z.string().optional(),
  /** Stripe's publishable key, for Stripe.js. */
  publishableKey: z.string().optional(),
  total: z.number().int(),
  currency: currencySchema,
  /** The VAT in the total, as decided from the billing country (the card's may still change it). */
  vat: checkoutVatSchema,
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** GET /checkout/:orderId?secret=: what the success and error pages show. */
export const checkoutStatusQuerySchema = z.object({ secret: z.string().min(32).max(128) });
export const checkoutStatusSchema = z.object({
  status: orderStatusSchema,
  failureReason: z.string().nullable(),
  /** Once paid: the order page's token, so the paying browser can open it at once. */
  orderToken: z.string().nullable(),
  linkToken: z.string(),
  total: z.number().int(),
  currency: currencySchema,
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/**
 * POST /checkout/:orderId/cancel: the paying browser leaves the checkout, and its reservation (a
 * unit of a limited stock, a use of a capped code) is given back at once. Authorised by the
 * checkout's own secret only.
 */
export const checkoutCancelQuerySchema = checkoutStatusQuerySchema;
export const checkoutCancelResponseSchema = z.object({ status: orderStatusSchema });

/** Why a payment that went through was not a sale: the buyer is refunded in full. */
export const unfulfilledReasons = ["sold-out", "promo-used-up"] as const;

/** The sandbox's test cards, shown on its payment page (sandbox only). */
export const sandboxCards = {
  success: "4242424242424242",
  declined: "4000000000000002",
  /** Needs an extra confirmation step, like 3-D Secure. */
  authenticate: "4000002500003155",
  /** Pay, with the card's issuing country reported (issue 22: the second piece of VAT evidence). */
  successFR: "4000002500000003",
  successDE: "4000002760000016",
  successHU: "4000003480000005",
  successUS: "4000008400000000",
  /** Pays, then the buyer's bank disputes the payment a moment later (issue 32), like Stripe's. */
  disputed: "4000000000000259",
} as const;

/** The issuing country the sandbox reports for a card; the plain success card reports none. */
export const sandboxCardCountries: Readonly<Record<string, string>> = {
  [sandboxCards.successFR]: "FR",
  [sandboxCards.successDE]: "DE",
  [sandboxCards.successHU]: "HU",
  [sandboxCards.successUS]: "US",
};

/** POST /sandbox/payments/:paymentId/confirm */
export const sandboxConfirmBodySchema = z.object({
  card: z
    .string()
    .transform((s) => s.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/)),
  /** MM/YY */
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/),
  cvc: z.string().regex(/^\d{3,4}$/),
  /** The buyer's answer when the billing and the card's countries disagree: which one is theirs. */
  country: billingCountrySchema.optional(),
});
export type SandboxConfirmBody = z.infer<typeof sandboxConfirmBodySchema>;
/** POST /sandbox/payments/:paymentId/authenticate: the buyer completes or refuses the extra step. */
export const sandboxAuthenticateBodySchema = z.object({ approve: z.boolean() });
export const sandboxPaymentResultSchema = z.object({
  status: z.enum(["succeeded", "declined", "requires_action", "needs_country"]),
  message: z.string().optional(),
  /** needs_country: the two countries to choose from (issue 22). */
  countries: z.object({ billing: z.string(), card: z.string() }).optional(),
});
export type SandboxPaymentResult = z.infer<typeof sandboxPaymentResultSchema>;

/**
 * POST /checkout/:orderId/confirm (Stripe): the payment is confirmed by the server (decision 040).
 * The browser sends the ConfirmationToken that Stripe.js made from the Payment Element; the API
 * reads the card's issuing country from it (the second piece of VAT evidence), asks the buyer when
 * it contradicts the billing country, changes the amount when VAT is added for another country,
 * then confirms the PaymentIntent with that same token, so the card charged is the card checked.
 */
export const checkoutConfirmBodySchema = z.object({
  secret: z.string().min(32).max(128),
  confirmationToken: z
    .string()
    .max(255)
    .regex(/^ctoken_[A-Za-z0-9_]+$/),
  /** The buyer's answer when the billing and the card's countries disagree: which one is theirs. */
  country: billingCountrySchema.optional(),
});
export type CheckoutConfirmBody = z.infer<typeof checkoutConfirmBodySchema>;
export const checkoutConfirmResultSchema = z.object({
  /**
   * succeeded or processing: go to the result page; requires_action: Stripe.js's
   * `handleNextAction` with the client secret (3-D Secure), then the result page; declined: show
   * `message` and let the buyer try another card; needs_country: ask which of `countries` is theirs
   * and send again with `country`.
   */
  status: z.enum(["succeeded", "processing", "requires_action", "declined", "needs_country"]),
  message: z.string().optional(),
  countries: z.object({ billing: z.string(), card: z.string() }).optional(),
  /** What is charged, VAT included (it changes when VAT is added for the card's country). */
  total: z.number().int(),
  vat: checkoutVatSchema,
});
export type CheckoutConfirmResult = z.infer<typeof checkoutConfirmResultSchema>;

/** The receipt's order token: 32 bytes in base64url. */
export const orderTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** GET /orders/:token: the buyer's order, with the unlocked content. */
export const orderFileSchema = z.object({
  name: z.string(),
  kind: fileKindSchema,
  contentType: z.string(),
  sizeBytes: z.number().int(),
  /** Short-lived signed URLs: to show in the page (images, video, audio) and to download. */
  viewUrl: z.string().url(),
  downloadUrl: z.string().url(),
  expiresAt: z.iso.datetime(),
});
export const orderViewSchema = z.object({
  status: orderStatusSchema,
  title: z.string(),
  description: z.string(),
  /** Null when the link's profile was deleted after the sale. */
  creator: z.object({ id: z.uuid(), displayName: z.string(), handle: z.string() }).nullable(),
  total: z.number().int(),
  currency: currencySchema,
  paidAt: z.iso.datetime().nullable(),
  files: z.array(orderFileSchema),
  /** The sale's VAT (issue 22); null for an order paid before VAT was recorded. */
  vat: checkoutVatSchema.nullable(),
  /** Its invoice and any credit notes, oldest first: PDFs at /orders/{token}/invoices/{id}.pdf. */
  invoices: z.array(orderInvoiceSchema),
});
export type OrderView = z.infer<typeof orderViewSchema>;

export const reportReasons = ["not-as-described", "not-received", "illegal", "copyright", "other"] as const;
export const reportReasonSchema = z.enum(reportReasons);

/** POST /report: from the order page (order token) or a link page (link token). */
export const reportBodySchema = z.object({
  token: z.string().min(22).max(128),
  reason: reportReasonSchema,
  message: z.string().trim().min(10).max(2000),
});
export type ReportBody = z.infer<typeof reportBodySchema>;
