ALTER TABLE "user_tokens" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD COLUMN "campaign_id" uuid;