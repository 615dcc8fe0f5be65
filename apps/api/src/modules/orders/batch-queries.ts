import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { links, orders, paymentEvents, promoCodes } from "../../db/schema/index.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import { rowsOf } from "../wallet/queries.ts";
import type { OrderRow, PaidOrderValues } from "./queries.ts";

/*
 * The set-based SQL of a batch of payments (apply-batch.ts): one statement per step for the whole
 * batch, where the one-by-one path (events.ts) runs one per event.
 */

type ProviderKind = PaymentProvider["kind"];

/** What decides whether a payment may take the batch's path: its order's link and promo code. */
export interface PaymentTarget {
  id: string;
  linkId: string;
  token: string;
  providerPaymentId: string | null;
  promoCodeId: string | null;
  stockLimit: number | null;
}

/** The orders these payments name, by payment id or by order id (as `orderOfPayment`), unlocked. */
export async function paymentTargets(
  db: DbOrTx,
  provider: ProviderKind,
  paymentIds: string[],
  orderIds: string[],
): Promise<PaymentTarget[]> {
  return db
    .select({
      id: orders.id,
      linkId: orders.linkId,
      token: links.token,
      providerPaymentId: orders.providerPaymentId,
      promoCodeId: orders.promoCodeId,
      stockLimit: links.stockLimit,
    })
    .from(orders)
    .innerJoin(links, eq(links.id, orders.linkId))
    .where(
      and(
        eq(orders.provider, provider),
        or(
          paymentIds.length > 0 ? inArray(orders.providerPaymentId, paymentIds) : sql`false`,
          orderIds.length > 0 ? inArray(orders.id, orderIds) : sql`false`,
        ),
      ),
    );
}

/*
 * A batch's rows go to PostgreSQL as one JSON parameter, unpacked by `jsonb_to_recordset`: one
 * parameter instead of one per value, which spares the query builder and the driver most of a
 * batch's CPU (profiled: building and sending a 100-row insert cost more than running it).
 */

/** Records the events (each with its order); answers the provider ids of those not recorded before. */
export async function recordPaymentEvents(
  db: DbOrTx,
  provider: ProviderKind,
  rows: { event: PaymentEvent; orderId: string }[],
): Promise<Set<string>> {
  const json = JSON.stringify(
    rows.map(({ event, orderId }) => ({
      event_id: event.id,
      type: event.type,
      payment_id: event.paymentId,
      order_id: orderId,
      payload: event.raw,
    })),
  );
  const recorded = rowsOf<{ eventId: string }>(
    await db.execute(sql`
    insert into "payment_events" (provider, event_id, type, payment_id, order_id, payload)
    select ${provider}, x.event_id, x.type, x.payment_id, x.order_id, x.payload
    from jsonb_to_recordset(${json}::jsonb)
      as x(event_id text, type text, payment_id text, order_id uuid, payload jsonb)
    on conflict (provider, event_id) do nothing
    returning event_id as "eventId"`),
  );
  return new Set(recorded.map((r) => r.eventId));
}

/** The orders' rows, locked in id order so that two batches never deadlock. */
export async function lockOrders(db: DbOrTx, orderIds: string[]): Promise<OrderRow[]> {
  return db.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(asc(orders.id)).for("update");
}

/** Which of these payments the provider has already reported refunded (a refund before its payment). */
export async function refundedPaymentIds(
  db: DbOrTx,
  provider: ProviderKind,
  paymentIds: string[],
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ paymentId: paymentEvents.paymentId })
    .from(paymentEvents)
    .where(
      and(
        eq(paymentEvents.provider, provider),
        inArray(paymentEvents.paymentId, paymentIds),
        eq(paymentEvents.type, "refund.succeeded"),
      ),
    );
  return rows.map((r) => r.paymentId);
}

/** Marks the orders paid, each with its own split and token hash, in one statement. */
export async function setOrdersPaid(
  db: DbOrTx,
  rows: { orderId: string; values: PaidOrderValues }[],
): Promise<void> {
  const json = JSON.stringify(
    rows.map(({ orderId, values: v }) => ({
      id: orderId,
      paid_at: v.paidAt,
      available_at: v.availableAt,
      referrer_id: v.referrerId,
      fee_minor: v.feeMinor,
      commission_minor: v.commissionMinor,
      partner_commission_minor: v.partnerCommissionMinor,
      net_minor: v.netMinor,
      access_token_hash: v.accessTokenHash,
    })),
  );
  await db.execute(sql`
    update orders o set status = 'paid', paid_at = v.paid_at, available_at = v.available_at,
      referrer_id = v.referrer_id, fee_minor = v.fee_minor, commission_minor = v.commission_minor,
      partner_commission_minor = v.partner_commission_minor, net_minor = v.net_minor, access_token_hash = v.access_token_hash, failure_reason = null,
      updated_at = now()
    from jsonb_to_recordset(${json}::jsonb) as v(id uuid, paid_at timestamptz, available_at timestamptz,
      referrer_id uuid, fee_minor bigint, commission_minor bigint, partner_commission_minor bigint,
      net_minor bigint, access_token_hash text)
    where o.id = v.id`);
}

/** Counts `sold` sales of a link at once. */
export async function countSales(db: DbOrTx, perLink: Map<string, number>): Promise<void> {
  if (perLink.size === 0) return;
  const json = JSON.stringify([...perLink].map(([id, sold]) => ({ id, sold })));
  // The rows are locked in id order first (an UPDATE … FROM takes them in no set order), so two
  // batches counting overlapping links never deadlock.
  await db.execute(sql`
    with x as (select * from jsonb_to_recordset(${json}::jsonb) as x(id uuid, sold int)),
    locked as (select l.id from ${links} l join x on x.id = l.id order by l.id for update of l)
    update ${links} set sales_count = sales_count + x.sold
    from x join locked on locked.id = x.id where ${links.id} = x.id`);
}

/** Counts `used` uses of a promo code at once. */
export async function countPromoUses(db: DbOrTx, promoCodeId: string, used: number): Promise<void> {
  await db
    .update(promoCodes)
    .set({ usedCount: sql`${promoCodes.usedCount} + ${used}` })
    .where(eq(promoCodes.id, promoCodeId));
}

/**
 * Queues many jobs in one statement, each at most once per dedupe key, like `enqueue` one by one
 * (the caller has checked each payload against its kind's schema).
 */
export async function insertJobs(
  db: DbOrTx,
  rows: { kind: string; payload: unknown; runAt?: Date; dedupeKey: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({ kind: r.kind, payload: r.payload, run_at: r.runAt ?? null, dedupe_key: r.dedupeKey })),
  );
  await db.execute(sql`
    insert into "jobs" (kind, payload, run_at, dedupe_key)
    select x.kind, x.payload, coalesce(x.run_at, now()), x.dedupe_key
    from jsonb_to_recordset(${json}::jsonb) as x(kind text, payload jsonb, run_at timestamptz, dedupe_key text)
    on conflict (dedupe_key) do nothing`);
}
