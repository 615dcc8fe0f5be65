CREATE TABLE "link_stock_units" (
	"link_id" uuid NOT NULL,
	"unit_no" integer NOT NULL,
	"order_id" uuid,
	"held_until" timestamp with time zone DEFAULT '-infinity' NOT NULL,
	"sold" boolean DEFAULT false NOT NULL,
	CONSTRAINT "link_stock_units_link_id_unit_no_pk" PRIMARY KEY("link_id","unit_no")
);
--> statement-breakpoint
ALTER TABLE "link_stock_units" ADD CONSTRAINT "link_stock_units_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_stock_units" ADD CONSTRAINT "link_stock_units_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_stock_units_unsold_idx" ON "link_stock_units" USING btree ("link_id","held_until") WHERE not "link_stock_units"."sold";--> statement-breakpoint
CREATE INDEX "link_stock_units_order_idx" ON "link_stock_units" USING btree ("order_id");--> statement-breakpoint
-- Whatever path ends an order (a payment failure or a refund from the events, a cancel, a replaced
-- checkout, an unfulfilled payment), its unit goes back to the free stock in the same transaction:
-- the stock never depends on each of those paths remembering to give it back (decision 032).
CREATE FUNCTION "link_stock_units_release"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "link_stock_units" SET "order_id" = NULL, "held_until" = '-infinity', "sold" = false
  WHERE "order_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_release_stock_unit" AFTER UPDATE OF "status" ON "orders" FOR EACH ROW
WHEN (NEW."status" IN ('failed', 'refunded') AND OLD."status" IS DISTINCT FROM NEW."status")
EXECUTE FUNCTION "link_stock_units_release"();--> statement-breakpoint
-- Back-fill: every limited link gets its units. Sold ones first (its paid orders, then any sale the
-- counter has without an order), then its live reservations (pending orders of the last 10 minutes,
-- CHECKOUT_RESERVATION_MINUTES' default: a migration cannot read the configuration), the rest free.
-- A link sold past its limit keeps one unit per sale, all sold.
WITH "limited" AS (
  SELECT l."id", l."stock_limit",
    greatest(l."sales_count", (SELECT count(*) FROM "orders" o WHERE o."link_id" = l."id" AND o."status" = 'paid'))::int AS "sold"
  FROM "links" l WHERE l."stock_limit" IS NOT NULL
), "paid" AS (
  SELECT o."link_id", o."id", row_number() OVER (PARTITION BY o."link_id" ORDER BY o."paid_at", o."id") AS "n"
  FROM "orders" o JOIN "limited" ON "limited"."id" = o."link_id" WHERE o."status" = 'paid'
), "held" AS (
  SELECT o."link_id", o."id", o."created_at" + interval '10 minutes' AS "held_until",
    row_number() OVER (PARTITION BY o."link_id" ORDER BY o."created_at", o."id") AS "n"
  FROM "orders" o JOIN "limited" ON "limited"."id" = o."link_id"
  WHERE o."status" = 'pending' AND o."created_at" > now() - interval '10 minutes'
)
INSERT INTO "link_stock_units" ("link_id", "unit_no", "order_id", "held_until", "sold")
SELECT l."id", g."n", coalesce(p."id", h."id"), coalesce(h."held_until", '-infinity'), g."n" <= l."sold"
FROM "limited" l
CROSS JOIN LATERAL generate_series(1, greatest(l."stock_limit", l."sold")) AS g("n")
LEFT JOIN "paid" p ON p."link_id" = l."id" AND p."n" = g."n"
LEFT JOIN "held" h ON h."link_id" = l."id" AND l."sold" + h."n" = g."n";
