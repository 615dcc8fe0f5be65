CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"fee_minor" bigint DEFAULT 0 NOT NULL,
	"fee_borne_by" text NOT NULL,
	"held_net_minor" bigint DEFAULT 0 NOT NULL,
	"held_vat_minor" bigint DEFAULT 0 NOT NULL,
	"held_fee_minor" bigint DEFAULT 0 NOT NULL,
	"held_commission_minor" bigint DEFAULT 0 NOT NULL,
	"held_partner_minor" bigint DEFAULT 0 NOT NULL,
	"debt_minor" bigint DEFAULT 0 NOT NULL,
	"held_at" timestamp with time zone,
	"won_at" timestamp with time zone,
	"lost_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"creator_note" text,
	"evidence" jsonb,
	"evidence_submitted_at" timestamp with time zone,
	"evidence_failure" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"fee_minor" bigint NOT NULL,
	"fee_returned" boolean DEFAULT false NOT NULL,
	"evidence" jsonb,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_access" (
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "order_access_order_id_kind_pk" PRIMARY KEY("order_id","kind")
);
--> statement-breakpoint
CREATE TABLE "connect_balance_mismatches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"currency" text NOT NULL,
	"expected_minor" bigint NOT NULL,
	"actual_minor" bigint NOT NULL,
	"reason" text,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_balances" DROP CONSTRAINT "ledger_balances_never_negative";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_fee_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_commission_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_partner_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_net_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "disputed_vat_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_window_days" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last_refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stripe_connect_accounts" ADD COLUMN "manual_payouts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_access" ADD CONSTRAINT "order_access_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_balance_mismatches" ADD CONSTRAINT "connect_balance_mismatches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_provider_dispute_idx" ON "disputes" USING btree ("provider","provider_dispute_id");--> statement-breakpoint
CREATE INDEX "disputes_order_idx" ON "disputes" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "disputes_creator_created_idx" ON "disputes" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_disputes_payment_idx" ON "sandbox_disputes" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connect_balance_mismatches_open_idx" ON "connect_balance_mismatches" USING btree ("account_id","currency") WHERE "connect_balance_mismatches"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "orders_creator_refunded_idx" ON "orders" USING btree ("creator_id","last_refunded_at") WHERE "orders"."last_refunded_at" is not null;--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_debt_not_positive" CHECK ("ledger_balances"."account" <> 'debt' or "ledger_balances"."balance_minor" <= 0);--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_never_negative" CHECK ("ledger_balances"."balance_minor" >= 0 or "ledger_balances"."account" in ('debt', 'platform_fees', 'provider', 'debts_written_off', 'disputes_held'));--> statement-breakpoint
-- Orders sold before the window was fixed on the order (issue 32) take their link's window now, the
-- nearest thing to what the buyer saw.
UPDATE "orders" SET "refund_window_days" = "links"."refund_window_days" FROM "links" WHERE "links"."id" = "orders"."link_id" AND "orders"."refund_window_days" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "last_refunded_at" = coalesce((SELECT max("settled_at") FROM "order_refunds" WHERE "order_refunds"."order_id" = "orders"."id" AND "order_refunds"."status" = 'succeeded'), "orders"."refunded_at", "orders"."updated_at") WHERE "orders"."refunded_minor" > 0;
