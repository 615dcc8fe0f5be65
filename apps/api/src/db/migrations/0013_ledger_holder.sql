-- One holder representation (decision 024): a balance row is always a user's, keyed by their id as
-- a uuid referencing users, like ledger_entries.owner_id. A holder that is not a user's uuid makes
-- the cast fail and the migration with it: such a row would already fail the ledger audit.
ALTER TABLE "ledger_balances" RENAME COLUMN "holder" TO "owner_id";--> statement-breakpoint
ALTER TABLE "ledger_balances" ALTER COLUMN "owner_id" SET DATA TYPE uuid USING "owner_id"::uuid;--> statement-breakpoint
ALTER TABLE "ledger_balances" RENAME CONSTRAINT "ledger_balances_holder_account_currency_pk" TO "ledger_balances_owner_id_account_currency_pk";--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
