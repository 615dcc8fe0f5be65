CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_paid_at" timestamp with time zone NOT NULL,
	"last_paid_at" timestamp with time zone NOT NULL,
	"orders_count" integer DEFAULT 0 NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"cumulative_minor" bigint NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"actor_id" uuid,
	"status" text DEFAULT 'asked' NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "refund_window_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_fee_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_commission_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_partner_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_net_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_creator_email_idx" ON "customers" USING btree ("creator_id","email");--> statement-breakpoint
CREATE INDEX "customers_creator_last_idx" ON "customers" USING btree ("creator_id","last_paid_at","id");--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_one_asked_idx" ON "order_refunds" USING btree ("order_id") WHERE "order_refunds"."status" = 'asked';--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_refund_window_days_check" CHECK ("refund_window_days" BETWEEN 0 AND 60);--> statement-breakpoint
INSERT INTO "customers" ("creator_id", "email", "first_paid_at", "last_paid_at", "orders_count")
SELECT "creator_id", "buyer_email", min("paid_at"), max("paid_at"), count(*)::int
FROM "orders" WHERE "paid_at" IS NOT NULL GROUP BY "creator_id", "buyer_email";--> statement-breakpoint
UPDATE "orders" SET "refunded_minor" = "total_minor", "refunded_fee_minor" = coalesce("fee_minor", 0),
  "refunded_commission_minor" = coalesce("commission_minor", 0),
  "refunded_partner_minor" = coalesce("partner_commission_minor", 0),
  "refunded_net_minor" = coalesce("net_minor", 0)
WHERE "status" = 'refunded' AND "fee_minor" IS NOT NULL;--> statement-breakpoint
INSERT INTO "order_refunds" ("order_id", "creator_id", "amount_minor", "currency", "cumulative_minor", "reason", "requested_by", "actor_id", "status", "created_at")
SELECT o."id", o."creator_id", o."total_minor", o."currency", o."total_minor", coalesce(a."reason", ''), 'admin', a."actor_id",
  CASE WHEN o."status" = 'refunded' THEN 'succeeded' ELSE 'asked' END, a."created_at"
FROM "admin_audit_log" a JOIN "orders" o ON o."id"::text = a."target_id"
WHERE a."action" = 'order.refund' AND a."target_type" = 'order';
