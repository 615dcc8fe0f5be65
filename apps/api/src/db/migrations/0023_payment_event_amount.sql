ALTER TABLE "payment_events" ADD COLUMN "amount_minor" bigint;--> statement-breakpoint
UPDATE "payment_events" e SET "amount_minor" = o."total_minor" FROM "orders" o
WHERE e."order_id" = o."id" AND e."type" = 'refund.succeeded';
