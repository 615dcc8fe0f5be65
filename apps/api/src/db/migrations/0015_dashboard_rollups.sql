CREATE TABLE "referral_sales" (
	"referrer_id" uuid NOT NULL,
	"creator_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"sales" integer NOT NULL,
	"pending_minor" bigint NOT NULL,
	"claimable_minor" bigint NOT NULL,
	"claimed_minor" bigint NOT NULL,
	CONSTRAINT "referral_sales_referrer_id_creator_id_currency_pk" PRIMARY KEY("referrer_id","creator_id","currency")
);
--> statement-breakpoint
CREATE TABLE "rollup_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"covered_until" timestamp with time zone NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily" (
	"creator_id" uuid NOT NULL,
	"day" date NOT NULL,
	"link_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"orders" integer NOT NULL,
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"net_minor" bigint NOT NULL,
	"refunds" integer NOT NULL,
	"refunded_net_minor" bigint NOT NULL,
	CONSTRAINT "sales_daily_creator_id_day_link_id_currency_pk" PRIMARY KEY("creator_id","day","link_id","currency")
);
--> statement-breakpoint
ALTER TABLE "referral_sales" ADD CONSTRAINT "referral_sales_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_sales" ADD CONSTRAINT "referral_sales_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD CONSTRAINT "sales_daily_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD CONSTRAINT "sales_daily_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referral_sales_creator_idx" ON "referral_sales" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "orders_updated_idx" ON "orders" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "orders_creator_paid_idx" ON "orders" USING btree ("creator_id","paid_at") WHERE "orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_creator_held_idx" ON "orders" USING btree ("creator_id","available_at") WHERE "orders"."status" = 'paid' and "orders"."released_at" is null;--> statement-breakpoint
CREATE INDEX "users_referred_by_campaign_idx" ON "users" USING btree ("referred_by_campaign_id","created_at");--> statement-breakpoint
-- Backfill (decision 031): the rollups of every order paid so far, as the refresh computes them.
INSERT INTO "sales_daily" ("creator_id", "day", "link_id", "currency", "orders", "gross_minor", "fee_minor", "net_minor", "refunds", "refunded_net_minor")
SELECT "creator_id", ("paid_at" at time zone 'UTC')::date, "link_id", "currency",
  count(*) filter (where "status" = 'paid'),
  coalesce(sum("total_minor") filter (where "status" = 'paid'), 0),
  coalesce(sum("fee_minor") filter (where "status" = 'paid'), 0),
  coalesce(sum("net_minor") filter (where "status" = 'paid'), 0),
  count(*) filter (where "status" = 'refunded'),
  coalesce(sum("net_minor") filter (where "status" = 'refunded'), 0)
FROM "orders" WHERE "paid_at" is not null AND "status" in ('paid', 'refunded')
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "referral_sales" ("referrer_id", "creator_id", "currency", "sales", "pending_minor", "claimable_minor", "claimed_minor")
SELECT "referrer_id", "creator_id", "currency",
  count(*) filter (where "status" = 'paid'),
  coalesce(sum("commission_minor") filter (where "status" = 'paid' and "released_at" is null), 0),
  coalesce(sum("commission_minor") filter (where "status" = 'paid' and "released_at" is not null and "commission_claim_id" is null), 0),
  coalesce(sum("commission_minor") filter (where "commission_claim_id" is not null), 0)
FROM "orders" WHERE "referrer_id" is not null AND "status" in ('paid', 'refunded')
GROUP BY 1, 2, 3;--> statement-breakpoint
-- Covered up to the oldest transaction still open, less the default clock overlap: the first
-- refresh recomputes whatever changed from there on (an instance still running the previous version
-- may be selling meanwhile).
INSERT INTO "rollup_watermarks" ("name", "covered_until", "refreshed_at")
SELECT 'sales', least(now(), coalesce(min(xact_start), now())) - interval '10 seconds', now()
FROM pg_stat_activity WHERE xact_start is not null AND datname = current_database();
