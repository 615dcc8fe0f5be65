import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gt,
  gte,
  inArray,
  isNotNull,
  lte,
  type SQL,
  sql,
} from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client.ts";
import {
  buyerUpdateDeliveries,
  buyerUpdates,
  creatorProfiles,
  customers,
  links,
  orders,
} from "../../db/schema/index.ts";

export type UpdateRow = typeof buyerUpdates.$inferSelect;
export type DeliveryStatus = (typeof buyerUpdateDeliveries.$inferSelect)["status"];

/** Who an update goes to: the creator's buyers up to `before`, of one link or of every link. */
export interface Audience {
  creatorId: string;
  linkId: string | null;
  before: Date;
}

/**
 * The audience's condition on customers. A buyer of a link is an address with a paid order of it
 * (paid_at set: a refunded order's buyer still bought, and may unsubscribe like anyone).
 */
function audienceWhere(db: DbOrTx, audience: Audience): SQL | undefined {
  return and(
    eq(customers.creatorId, audience.creatorId),
    lte(customers.firstPaidAt, audience.before),
    audience.linkId
      ? exists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(
              and(
                eq(orders.creatorId, customers.creatorId),
                eq(orders.linkId, audience.linkId),
                eq(orders.buyerEmail, customers.email),
                isNotNull(orders.paidAt),
                lte(orders.paidAt, audience.before),
              ),
            ),
        )
      : undefined,
  );
}

export async function audienceCounts(
  db: DbOrTx,
  audience: Audience,
): Promise<{ recipients: number; unsubscribed: number }> {
  const [row] = await db
    .select({
      recipients: count(),
      unsubscribed: sql<number>`count(${customers.unsubscribedAt})::int`,
    })
    .from(customers)
    .where(audienceWhere(db, audience));
  return { recipients: row?.recipients ?? 0, unsubscribed: row?.unsubscribed ?? 0 };
}

/**
 * The audience's next customers after `after` in address order (the creator-and-address unique
 * index walks it): one batch, never the whole list.
 */
export async function audienceBatch(
  tx: Tx,
  params: Audience & { after: string | null; limit: number },
): Promise<{ id: string; email: string; unsubscribedAt: Date | null }[]> {
  return tx
    .select({ id: customers.id, email: customers.email, unsubscribedAt: customers.unsubscribedAt })
    .from(customers)
    .where(
      and(audienceWhere(tx, params), params.after === null ? undefined : gt(customers.email, params.after)),
    )
    .orderBy(asc(customers.email))
    .limit(params.limit);
}

/** The creator's link (any status: an archived one's buyers are still buyers), or null. */
export async function creatorLink(
  db: DbOrTx,
  params: { creatorId: string; linkId: string },
): Promise<{ id: string; profileId: string | null } | null> {
  const [row] = await db
    .select({ id: links.id, profileId: links.profileId })
    .from(links)
    .where(and(eq(links.id, params.linkId), eq(links.ownerId, params.creatorId)));
  return row ?? null;
}

/** Updates the creator wrote since `since` (the rolling day's allowance), and the oldest of them. */
export async function updatesSince(
  db: DbOrTx,
  params: { creatorId: string; since: Date },
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ count: count(), oldest: sql<string | null>`min(${buyerUpdates.createdAt})` })
    .from(buyerUpdates)
    .where(and(eq(buyerUpdates.creatorId, params.creatorId), gte(buyerUpdates.createdAt, params.since)));
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Serialises one creator's compose calls, so two at once cannot both pass the day's allowance. */
export async function lockCreatorUpdates(tx: Tx, creatorId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`buyer-updates:${creatorId}`}))`);
}

const updateColumns = {
  id: buyerUpdates.id,
  creatorId: buyerUpdates.creatorId,
  linkId: buyerUpdates.linkId,
  linkTitle: links.title,
  subject: buyerUpdates.subject,
  body: buyerUpdates.body,
  locale: buyerUpdates.locale,
  status: buyerUpdates.status,
  recipients: buyerUpdates.recipients,
  sent: buyerUpdates.sent,
  failed: buyerUpdates.failed,
  skipped: buyerUpdates.skipped,
  createdAt: buyerUpdates.createdAt,
  finishedAt: buyerUpdates.finishedAt,
};
export type UpdateListRow = Omit<UpdateRow, "senderName" | "cursor" | "batches"> & {
  linkTitle: string | null;
};

export async function insertUpdate(
  tx: Tx,
  values: Pick<
    UpdateRow,
    "creatorId" | "linkId" | "subject" | "body" | "locale" | "senderName" | "recipients" | "createdAt"
  >,
): Promise<{ id: string }> {
  const [row] = await tx.insert(buyerUpdates).values(values).returning({ id: buyerUpdates.id });
  if (!row) throw new Error("The update was not stored");
  return row;
}

export async function listUpdates(
  db: DbOrTx,
  params: { creatorId: string; limit: number },
): Promise<UpdateListRow[]> {
  return db
    .select(updateColumns)
    .from(buyerUpdates)
    .leftJoin(links, eq(links.id, buyerUpdates.linkId))
    .where(eq(buyerUpdates.creatorId, params.creatorId))
    .orderBy(desc(buyerUpdates.createdAt), desc(buyerUpdates.id))
    .limit(params.limit);
}

export async function getUpdate(
  db: DbOrTx,
  params: { creatorId: string; id: string },
): Promise<UpdateListRow | null> {
  const [row] = await db
    .select(updateColumns)
    .from(buyerUpdates)
    .leftJoin(links, eq(links.id, buyerUpdates.linkId))
    .where(and(eq(buyerUpdates.id, params.id), eq(buyerUpdates.creatorId, params.creatorId)));
  return row ?? null;
}

/**
 * The update being sent, locked for the batch's transaction: a second job of the same update (a
 * retry, another worker) waits here, then reads the cursor this one committed. Null once sent.
 * No owner in the where: the job names the update it was queued for.
 */
export async function lockSendingUpdate(tx: Tx, id: string): Promise<UpdateRow | null> {
  const [row] = await tx
    .select()
    .from(buyerUpdates)
    .where(and(eq(buyerUpdates.id, id), eq(buyerUpdates.status, "sending")))
    .for("update");
  return row ?? null;
}

/** Which of these customers the update already reached (a batch that ran before, in part). */
export async function deliveredAmong(
  tx: Tx,
  params: { updateId: string; customerIds: string[] },
): Promise<Set<string>> {
  if (params.customerIds.length === 0) return new Set();
  const rows = await tx
    .select({ id: buyerUpdateDeliveries.customerId })
    .from(buyerUpdateDeliveries)
    .where(
      and(
        eq(buyerUpdateDeliveries.updateId, params.updateId),
        inArray(buyerUpdateDeliveries.customerId, params.customerIds),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function insertDeliveries(
  tx: Tx,
  rows: { updateId: string; customerId: string; status: DeliveryStatus }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(buyerUpdateDeliveries).values(rows).onConflictDoNothing();
}

/** Adds a batch's counts and moves the cursor; `finished` marks the update sent. */
export async function advanceUpdate(
  tx: Tx,
  params: {
    id: string;
    sent: number;
    failed: number;
    skipped: number;
    cursor: string | null;
    finished: boolean;
  },
): Promise<void> {
  await tx
    .update(buyerUpdates)
    .set({
      sent: sql`${buyerUpdates.sent} + ${params.sent}`,
      failed: sql`${buyerUpdates.failed} + ${params.failed}`,
      skipped: sql`${buyerUpdates.skipped} + ${params.skipped}`,
      cursor: params.cursor,
      batches: sql`${buyerUpdates.batches} + 1`,
      ...(params.finished ? { status: "sent" as const, finishedAt: sql`clock_timestamp()` } : {}),
    })
    .where(eq(buyerUpdates.id, params.id));
}

// ---------------------------------------------------------------------------------------------
// The buyer's side: the unsubscribe link names a customer row

export async function customerById(
  db: DbOrTx,
  id: string,
): Promise<{ id: string; creatorId: string; unsubscribedAt: Date | null } | null> {
  const [row] = await db
    .select({ id: customers.id, creatorId: customers.creatorId, unsubscribedAt: customers.unsubscribedAt })
    .from(customers)
    .where(eq(customers.id, id));
  return row ?? null;
}

/** Idempotent: the first time is kept. */
export async function unsubscribeCustomer(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(customers)
    .set({ unsubscribedAt: sql`coalesce(${customers.unsubscribedAt}, now())` })
    .where(eq(customers.id, id));
}

/** A profile's display name, when it is the creator's. */
export async function profileName(
  db: DbOrTx,
  params: { ownerId: string; profileId: string },
): Promise<string | null> {
  const [row] = await db
    .select({ name: creatorProfiles.displayName })
    .from(creatorProfiles)
    .where(and(eq(creatorProfiles.id, params.profileId), eq(creatorProfiles.ownerId, params.ownerId)));
  return row?.name ?? null;
}
