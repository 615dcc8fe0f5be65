CREATE TABLE "purchase_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"access_hash" text,
	"access_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "purchase_links_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "purchase_links_access_hash_unique" UNIQUE("access_hash")
);
--> statement-breakpoint
CREATE INDEX "purchase_links_email_created_idx" ON "purchase_links" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "orders_buyer_paid_idx" ON "orders" USING btree ("buyer_email","paid_at") WHERE "orders"."paid_at" is not null;