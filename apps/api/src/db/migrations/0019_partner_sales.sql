CREATE TABLE "partner_click_days" (
	"membership_id" uuid NOT NULL,
	"day" date NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"bot_clicks" bigint DEFAULT 0 NOT NULL,
	"filtered_clicks" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_click_days_membership_id_day_pk" PRIMARY KEY("membership_id","day")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_membership_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_blocked" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_commission_minor" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partner_claim_id" uuid;--> statement-breakpoint
ALTER TABLE "partner_click_days" ADD CONSTRAINT "partner_click_days_membership_id_partner_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."partner_memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_membership_id_partner_memberships_id_fk" FOREIGN KEY ("partner_membership_id") REFERENCES "public"."partner_memberships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_claim_id_commission_claims_id_fk" FOREIGN KEY ("partner_claim_id") REFERENCES "public"."commission_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_partner_membership_idx" ON "orders" USING btree ("partner_membership_id","paid_at") WHERE "orders"."partner_membership_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_partner_idx" ON "orders" USING btree ("partner_id","paid_at") WHERE "orders"."partner_id" is not null;