CREATE TABLE "buyer_update_deliveries" (
	"update_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "buyer_update_deliveries_update_id_customer_id_pk" PRIMARY KEY("update_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "buyer_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"link_id" uuid,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"locale" text NOT NULL,
	"sender_name" text,
	"status" text DEFAULT 'sending' NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"cursor" text,
	"batches" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "buyer_update_deliveries" ADD CONSTRAINT "buyer_update_deliveries_update_id_buyer_updates_id_fk" FOREIGN KEY ("update_id") REFERENCES "public"."buyer_updates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_update_deliveries" ADD CONSTRAINT "buyer_update_deliveries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_updates" ADD CONSTRAINT "buyer_updates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_updates" ADD CONSTRAINT "buyer_updates_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_update_deliveries_customer_idx" ON "buyer_update_deliveries" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "buyer_updates_creator_created_idx" ON "buyer_updates" USING btree ("creator_id","created_at");