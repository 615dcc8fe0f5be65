CREATE TABLE "ledger_balance_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "ledger_balance_deltas_credit" CHECK ("ledger_balance_deltas"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_balance_deltas" ADD CONSTRAINT "ledger_balance_deltas_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_balance_deltas_key_idx" ON "ledger_balance_deltas" USING btree ("owner_id","account","currency");