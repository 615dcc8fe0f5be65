CREATE TABLE "campaign_click_days" (
	"campaign_id" uuid NOT NULL,
	"day" date NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"bot_clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_click_days_campaign_id_day_pk" PRIMARY KEY("campaign_id","day")
);
--> statement-breakpoint
CREATE TABLE "commission_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "commission_claim_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_click_days" ADD CONSTRAINT "campaign_click_days_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_claims" ADD CONSTRAINT "commission_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_claims_user_idx" ON "commission_claims" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_commission_claim_id_commission_claims_id_fk" FOREIGN KEY ("commission_claim_id") REFERENCES "public"."commission_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_referrer_idx" ON "orders" USING btree ("referrer_id","paid_at");