CREATE TABLE "payout_schedules" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"weekday" integer,
	"day_of_month" integer,
	"threshold_minor" bigint,
	"blocked" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"blocked_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL,
	"step" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "payouts_one_open_idx";--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "kind" text DEFAULT 'iban' NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "bank_code" text;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "account_type" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "origin" text DEFAULT 'request' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "schedule_period" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "held_rules" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bank_reference" text;--> statement-breakpoint
ALTER TABLE "payout_schedules" ADD CONSTRAINT "payout_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_steps" ADD CONSTRAINT "payout_steps_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_steps_payout_idx" ON "payout_steps" USING btree ("payout_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_schedule_period_idx" ON "payouts" USING btree ("user_id","currency","schedule_period") WHERE "payouts"."schedule_period" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_open_idx" ON "payouts" USING btree ("user_id","currency") WHERE "payouts"."status" in ('requested', 'processing');--> statement-breakpoint
-- The timeline of the payouts made before issue 23, from their own dates (decision 041).
INSERT INTO "payout_steps" ("payout_id", "step", "detail", "at")
SELECT "id", 'requested', '{}'::jsonb, "requested_at" FROM "payouts";--> statement-breakpoint
INSERT INTO "payout_steps" ("payout_id", "step", "detail", "at")
SELECT "id", 'approved', '{"by":"admin"}'::jsonb, "processing_at" FROM "payouts" WHERE "processing_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "payout_steps" ("payout_id", "step", "detail", "at")
SELECT "id", 'paid', '{}'::jsonb, "paid_at" FROM "payouts" WHERE "paid_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "payout_steps" ("payout_id", "step", "detail", "at")
SELECT "id", 'failed', jsonb_build_object('reason', coalesce("failure_reason", '')), "failed_at" FROM "payouts" WHERE "failed_at" IS NOT NULL;
