import type { VatScheme } from "@salelink/contracts";
import { currencies, locales, orderStatuses, partnerBlockReasons, reportReasons } from "@salelink/contracts";
import type { VatCountry } from "@salelink/contracts/vat-countries";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { commissionClaims } from "./affiliates.ts";
import { links, promoCodes } from "./catalogue.ts";
import { partnerMemberships } from "./partners.ts";
import { users } from "./users.ts";

/**
 * A buyer's purchase of a link. Created pending by checkout with the price computed on the server;
 * a provider event makes it paid (or failed) exactly once. The amounts are fixed at checkout, the
 * split (fee, commission, net) when it is paid, in the same transaction as its ledger posting.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id),
    /** The link's owner at checkout: whose sale it is. */
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    buyerEmail: text("buyer_email").notNull(),
    locale: text("locale", { enum: locales }).notNull(),
    status: text("status", { enum: orderStatuses }).notNull().default("pending"),
    currency: text("currency", { enum: currencies }).notNull(),
    priceMinor: bigint("price_minor", { mode: "number" }).notNull(),
    discountMinor: bigint("discount_minor", { mode: "number" }).notNull().default(0),
    totalMinor: bigint("total_minor", { mode: "number" }).notNull(),
    promoCodeId: uuid("promo_code_id").references(() => promoCodes.id, { onDelete: "set null" }),
    promoCode: text("promo_code"),
    /** "sandbox" or "stripe", and the provider's id of the payment (intent or session). */
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id"),
    /** SHA-256 of the secret order token e-mailed to the buyer; the token itself is never stored. */
    accessTokenHash: text("access_token_hash"),
    /** SHA-256 of the secret the paying browser keeps to read the outcome on the success page. */
    checkoutSecretHash: text("checkout_secret_hash").notNull(),
    referrerId: uuid("referrer_id").references(() => users.id),
    feeMinor: bigint("fee_minor", { mode: "number" }),
    commissionMinor: bigint("commission_minor", { mode: "number" }),
    /** The referrer's claim that moved this order's commission into their wallet. */
    commissionClaimId: uuid("commission_claim_id").references(() => commissionClaims.id),
    /**
     * A creator's partner programme (decision 035): the membership whose `?via=` code the buyer
     * followed, fixed at checkout with its partner and the rate of that moment; the commission is
     * computed when the order is paid. A blocked attribution keeps the partner and says why, and
     * earns nothing.
     */
    partnerMembershipId: uuid("partner_membership_id").references(() => partnerMemberships.id, {
      onDelete: "set null",
    }),
    partnerId: uuid("partner_id").references(() => users.id),
    partnerRateBps: integer("partner_rate_bps"),
    partnerBlocked: text("partner_blocked", { enum: partnerBlockReasons }),
    partnerCommissionMinor: bigint("partner_commission_minor", { mode: "number" }),
    /** The partner's claim that moved this order's partner commission into their wallet. */
    partnerClaimId: uuid("partner_claim_id").references(() => commissionClaims.id),
    /** What the creator earns: the amount paid less the platform fee and any partner commission. */
    netMinor: bigint("net_minor", { mode: "number" }),
    /**
     * The sale's VAT (issue 22, decision 039), fixed at checkout: the country the evidence decided
     * (the billing country the buyer gave, the card's country the provider reported), the scheme
     * (standard, reverse charge, outside, not registered), the rate and the VAT in the total. The
     * fee and the commissions are shares of the total less the VAT.
     */
    billingCountry: text("billing_country"),
    vatScheme: text("vat_scheme").$type<VatScheme>(),
    vatCountry: text("vat_country").$type<VatCountry>(),
    vatRateBps: integer("vat_rate_bps"),
    vatMinor: bigint("vat_minor", { mode: "number" }).notNull().default(0),
    /** Whether the link's price included VAT when the buyer checked out (else VAT was added). */
    pricesIncludeVat: boolean("prices_include_vat").notNull().default(true),
    vatEvidence: jsonb("vat_evidence").$type<Record<string, unknown>>(),
    /** A business buyer's details for the invoice (a VAT number checked with VIES: reverse charge). */
    buyerVatNumber: text("buyer_vat_number"),
    buyerName: text("buyer_name"),
    buyerAddress: text("buyer_address"),
    /**
     * What refunds have taken back so far (issue 21: a refund may be partial), in total and per part
     * of the split. The sale as it stands is the split less these (`saleFacts`): a hold's release,
     * a claim and the next refund move only what is left.
     */
    refundedMinor: bigint("refunded_minor", { mode: "number" }).notNull().default(0),
    refundedFeeMinor: bigint("refunded_fee_minor", { mode: "number" }).notNull().default(0),
    refundedCommissionMinor: bigint("refunded_commission_minor", { mode: "number" }).notNull().default(0),
    refundedPartnerMinor: bigint("refunded_partner_minor", { mode: "number" }).notNull().default(0),
    refundedNetMinor: bigint("refunded_net_minor", { mode: "number" }).notNull().default(0),
    refundedVatMinor: bigint("refunded_vat_minor", { mode: "number" }).notNull().default(0),
    /**
     * What a chargeback holds of the sale (issue 32, decision 042), per part like the refunds: taken
     * when the dispute opens, given back when it is won, turned into a refund when it is lost.
     */
    disputedMinor: bigint("disputed_minor", { mode: "number" }).notNull().default(0),
    disputedFeeMinor: bigint("disputed_fee_minor", { mode: "number" }).notNull().default(0),
    disputedCommissionMinor: bigint("disputed_commission_minor", { mode: "number" }).notNull().default(0),
    disputedPartnerMinor: bigint("disputed_partner_minor", { mode: "number" }).notNull().default(0),
    disputedNetMinor: bigint("disputed_net_minor", { mode: "number" }).notNull().default(0),
    disputedVatMinor: bigint("disputed_vat_minor", { mode: "number" }).notNull().default(0),
    /**
     * The link's refund window when the buyer checked out (issue 32): the creator's refunds are
     * judged by it, whatever the link says later. Null only for orders older than the rule, whose
     * window was filled in from their link when it arrived.
     */
    refundWindowDays: integer("refund_window_days"),
    /** The latest refund, whole or partial, for the payout rules (recent refunds). */
    lastRefundedAt: timestamp("last_refunded_at", { withTimezone: true }),
    failureReason: text("failure_reason"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** The end of the hold: when the creator's share becomes available. */
    availableAt: timestamp("available_at", { withTimezone: true }),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_provider_payment_idx").on(t.provider, t.providerPaymentId),
    uniqueIndex("orders_access_token_idx").on(t.accessTokenHash),
    index("orders_creator_created_idx").on(t.creatorId, t.createdAt),
    index("orders_link_status_idx").on(t.linkId, t.status),
    // A buyer's live checkout of a link, which their next one replaces (decision 032): found without
    // reading the link's other pending orders, thousands of them on a launch day.
    index("orders_link_buyer_pending_idx").on(t.linkId, t.buyerEmail).where(sql`${t.status} = 'pending'`),
    index("orders_referrer_idx").on(t.referrerId, t.paidAt),
    // A programme's figures per partner, and a partner's own (claims, statistics).
    index("orders_partner_membership_idx")
      .on(t.partnerMembershipId, t.paidAt)
      .where(sql`${t.partnerMembershipId} is not null`),
    index("orders_partner_idx").on(t.partnerId, t.paidAt).where(sql`${t.partnerId} is not null`),
    // The dashboard rollups (decision 031): the orders changed since the last refresh, a creator's
    // orders of one payment day, the latest sales, and the sales still held, each without a scan.
    index("orders_updated_idx").on(t.updatedAt),
    // A buyer's library: the orders paid with an address (issue 21).
    index("orders_buyer_paid_idx").on(t.buyerEmail, t.paidAt).where(sql`${t.paidAt} is not null`),
    // The buyers of one link, for the creator's customers filtered by link (issue 21): read from the
    // index alone, without the orders' rows.
    index("orders_link_buyer_paid_idx").on(t.linkId, t.buyerEmail).where(sql`${t.paidAt} is not null`),
    index("orders_creator_paid_idx").on(t.creatorId, t.paidAt).where(sql`${t.paidAt} is not null`),
    index("orders_creator_held_idx")
      .on(t.creatorId, t.availableAt)
      .where(sql`${t.status} = 'paid' and ${t.releasedAt} is null`),
    // The payout rule "recent refunds" (issue 32): any refund of a creator's sales, whoever paid it.
    index("orders_creator_refunded_idx")
      .on(t.creatorId, t.lastRefundedAt)
      .where(sql`${t.lastRefundedAt} is not null`),
    // The hold-release job looks for paid orders whose hold is over.
    index("orders_release_idx")
      .on(t.availableAt)
      .where(sql`${t.status} = 'paid' and ${t.releasedAt} is null`),
  ],
);

/**
 * When a buyer opened what they bought (issue 32: the delivery evidence of a dispute): the order
 * page with its files unlocked, first and last time and how often. One row per order and kind, so
 * reloading the page costs an update, never a new row.
 */
export const orderAccess = pgTable(
  "order_access",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["order_page"] }).notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull().defaultNow(),
    count: integer("count").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.kind] })],
);

/**
 * Every provider event, kept once under its provider's id: the unique key is what makes a
 * redelivered event a no-op, in the same transaction as the effect it had the first time.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    paymentId: text("payment_id").notNull(),
    orderId: uuid("order_id").references(() => orders.id),
    /** The event's amount as normalised (a refund's: what the payment's refunds add up to). */
    amountMinor: bigint("amount_minor", { mode: "number" }),
    payload: jsonb("payload").$type<unknown>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_idx").on(t.provider, t.eventId),
    index("payment_events_payment_idx").on(t.provider, t.paymentId),
  ],
);

/**
 * The sandbox provider's own store, as Stripe keeps its PaymentIntents: what was asked, and what
 * the test card did. Only the sandbox reads or writes it.
 */
export const sandboxPayments = pgTable("sandbox_payments", {
  id: text("id").primaryKey(),
  orderId: uuid("order_id").notNull(),
  amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
  currency: text("currency", { enum: currencies }).notNull(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  status: text("status", {
    enum: ["requires_payment_method", "requires_action", "succeeded", "failed", "refunded"],
  })
    .notNull()
    .default("requires_payment_method"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A buyer's (or anyone holding a link or order token) report, queued for admins. */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => links.id),
    orderId: uuid("order_id").references(() => orders.id),
    reason: text("reason", { enum: reportReasons }).notNull(),
    message: text("message").notNull(),
    status: text("status", { enum: ["open", "dismissed", "actioned"] })
      .notNull()
      .default("open"),
    /** A hash of the reporter's address and agent, to limit floods without keeping the address. */
    reporterKey: text("reporter_key").notNull(),
    handledBy: uuid("handled_by").references(() => users.id),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    /** The admin's note on how the report was handled. */
    resolutionNote: text("resolution_note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("reports_status_created_idx").on(t.status, t.createdAt),
    index("reports_link_idx").on(t.linkId),
  ],
);
