import { currencies, disputeFeeBearers, disputeStatuses } from "@salelink/contracts";
import type { DisputeEvidenceView } from "@salelink/contracts/disputes";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { orders } from "./orders.ts";
import { users } from "./users.ts";

/**
 * A chargeback of one of the creator's sales (issue 32, decision 042), as the provider last reported
 * it, with what the ledger did about it. `heldAt`: the disputed share was taken (the `dispute`
 * posting); `wonAt`: given back (`dispute_won`); `lostAt`: kept as a refund. The held parts are what
 * that posting took of each part of the sale, before any of it fell to a debt (`debtMinor`).
 */
export const disputes = pgTable(
  "disputes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    creatorId: uuid("creator_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    providerDisputeId: text("provider_dispute_id").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: disputeStatuses }).notNull(),
    evidenceDueBy: timestamp("evidence_due_by", { withTimezone: true }),
    /** The provider's fee as posted (taken from its bearer), and who bore it. */
    feeMinor: bigint("fee_minor", { mode: "number" }).notNull().default(0),
    feeBorneBy: text("fee_borne_by", { enum: disputeFeeBearers }).notNull(),
    heldNetMinor: bigint("held_net_minor", { mode: "number" }).notNull().default(0),
    heldVatMinor: bigint("held_vat_minor", { mode: "number" }).notNull().default(0),
    heldFeeMinor: bigint("held_fee_minor", { mode: "number" }).notNull().default(0),
    heldCommissionMinor: bigint("held_commission_minor", { mode: "number" }).notNull().default(0),
    heldPartnerMinor: bigint("held_partner_minor", { mode: "number" }).notNull().default(0),
    /** What the held share and the fee added to debts (the creator's, a partner's, a referrer's). */
    debtMinor: bigint("debt_minor", { mode: "number" }).notNull().default(0),
    heldAt: timestamp("held_at", { withTimezone: true }),
    wonAt: timestamp("won_at", { withTimezone: true }),
    lostAt: timestamp("lost_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    creatorNote: text("creator_note"),
    /** The evidence as sent to the provider (the job assembles it within the hour). */
    evidence: jsonb("evidence").$type<DisputeEvidenceView>(),
    evidenceSubmittedAt: timestamp("evidence_submitted_at", { withTimezone: true }),
    evidenceFailure: text("evidence_failure"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("disputes_provider_dispute_idx").on(t.provider, t.providerDisputeId),
    index("disputes_order_idx").on(t.orderId),
    // A creator's disputes (the sale page, the payout rule "recent refunds", the admin's rate).
    index("disputes_creator_created_idx").on(t.creatorId, t.createdAt),
  ],
);

/**
 * The sandbox's card issuer (issue 32): disputes it opened on sandbox payments, as Stripe keeps
 * them. Only the sandbox provider reads or writes it.
 */
export const sandboxDisputes = pgTable(
  "sandbox_disputes",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id").notNull(),
    orderId: uuid("order_id").notNull(),
    amountMinor: bigint("amount_minor", { mode: "number" }).notNull(),
    currency: text("currency", { enum: currencies }).notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["needs_response", "under_review", "won", "lost"] }).notNull(),
    feeMinor: bigint("fee_minor", { mode: "number" }).notNull(),
    /** Whether the bank gave the fee back with a won dispute. */
    feeReturned: boolean("fee_returned").notNull().default(false),
    evidence: jsonb("evidence").$type<Record<string, string>>(),
    evidenceDueBy: timestamp("evidence_due_by", { withTimezone: true }).notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // A payment is disputed once: two buyers' clicks at once meet here.
  (t) => [uniqueIndex("sandbox_disputes_payment_idx").on(t.paymentId)],
);
