CREATE TABLE "partner_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "partner_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "partner_link_rates" (
	"creator_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"rate_bps" integer NOT NULL,
	CONSTRAINT "partner_link_rates_creator_id_link_id_pk" PRIMARY KEY("creator_id","link_id"),
	CONSTRAINT "partner_link_rates_rate_range" CHECK ("partner_link_rates"."rate_bps" between 100 and 9000)
);
--> statement-breakpoint
CREATE TABLE "partner_memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"creator_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"status" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"decided_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	CONSTRAINT "partner_memberships_status" CHECK ("partner_memberships"."status" in ('applied', 'active', 'refused', 'removed')),
	CONSTRAINT "partner_memberships_not_self" CHECK ("partner_memberships"."creator_id" <> "partner_memberships"."partner_id")
);
--> statement-breakpoint
CREATE TABLE "partner_programmes" (
	"creator_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"default_rate_bps" integer DEFAULT 1000 NOT NULL,
	"window_days" integer DEFAULT 30 NOT NULL,
	"join_mode" text DEFAULT 'approval' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"terms" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_programmes_rate_range" CHECK ("partner_programmes"."default_rate_bps" between 100 and 9000),
	CONSTRAINT "partner_programmes_window_range" CHECK ("partner_programmes"."window_days" between 1 and 365),
	CONSTRAINT "partner_programmes_join_mode" CHECK ("partner_programmes"."join_mode" in ('open', 'approval', 'invitation')),
	CONSTRAINT "partner_programmes_text_length" CHECK (char_length("partner_programmes"."description") <= 500 and char_length("partner_programmes"."terms") <= 5000)
);
--> statement-breakpoint
ALTER TABLE "partner_invitations" ADD CONSTRAINT "partner_invitations_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invitations" ADD CONSTRAINT "partner_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_link_rates" ADD CONSTRAINT "partner_link_rates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_link_rates" ADD CONSTRAINT "partner_link_rates_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_memberships" ADD CONSTRAINT "partner_memberships_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_memberships" ADD CONSTRAINT "partner_memberships_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_programmes" ADD CONSTRAINT "partner_programmes_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_invitations_creator_created_idx" ON "partner_invitations" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_link_rates_link_idx" ON "partner_link_rates" USING btree ("link_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_memberships_code_idx" ON "partner_memberships" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_memberships_creator_partner_idx" ON "partner_memberships" USING btree ("creator_id","partner_id");--> statement-breakpoint
CREATE INDEX "partner_memberships_creator_created_idx" ON "partner_memberships" USING btree ("creator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "partner_memberships_partner_created_idx" ON "partner_memberships" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_programmes_enabled_idx" ON "partner_programmes" USING btree ("enabled","created_at");