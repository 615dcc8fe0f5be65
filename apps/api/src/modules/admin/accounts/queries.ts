import type {
  AdminAccountList,
  AdminAccountListQuery,
  AdminIdentityList,
  AdminIdentityListQuery,
  AdminRoleBody,
} from "@salelink/contracts";
import { adminIdentityStatusSchema } from "@salelink/contracts";
import { and, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../../db/client.ts";
import { afterCursor } from "../../../db/cursor.ts";
import {
  adminAuditLog,
  campaigns,
  creatorProfiles,
  identitySessions,
  links,
  onboardingProfiles,
  orders,
  payouts,
  users,
} from "../../../db/schema/index.ts";
import { maskEmail } from "../../affiliates/pseudonyms.ts";
import { auditList } from "../../audit/queries.ts";

/*
 * Reads for the admin console. Admins see every account, so there is no owner filter here: the
 * routes are admin-only (config.auth) and these functions are used by them alone.
 */

/** `%` and `_` typed by an admin are searched for, not used as wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Written out in full: in a one-table select drizzle leaves columns unqualified, and "id" here
// would then be the session's own.
const latestIdentityStatus = sql<string | null>`(
  select s.status from ${identitySessions} s where s.user_id = "users"."id"
  order by s.created_at desc limit 1)`;

const accountColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
  emailVerifiedAt: users.emailVerifiedAt,
  onboardingCompletedAt: users.onboardingCompletedAt,
  suspendedAt: users.suspendedAt,
  deletedAt: users.deletedAt,
  referredByCampaignId: users.referredByCampaignId,
  identityStatus: latestIdentityStatus,
};

export function toSummary(row: Awaited<ReturnType<typeof accountRows>>[number]) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    emailVerified: row.emailVerifiedAt !== null,
    onboardingCompleted: row.onboardingCompletedAt !== null,
    identityStatus: adminIdentityStatusSchema.catch("none").parse(row.identityStatus ?? "none"),
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

function accountRows(db: DbOrTx, where: SQL | undefined, limit: number) {
  return db
    .select(accountColumns)
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}

export async function searchAccounts(db: DbOrTx, query: AdminAccountListQuery): Promise<AdminAccountList> {
  const q = query.q?.trim();
  const pattern = q ? likePattern(q) : null;
  const matches = pattern
    ? sql`(${users.email} ilike ${pattern}
        or exists (select 1 from ${onboardingProfiles} o where o.user_id = "users"."id" and (
          o.first_name ilike ${pattern} or o.last_name ilike ${pattern} or o.company_name ilike ${pattern}
          or (coalesce(o.first_name, '') || ' ' || coalesce(o.last_name, '')) ilike ${pattern}))
        or exists (select 1 from ${creatorProfiles} p where p.owner_id = "users"."id"
          and p.display_name ilike ${pattern}))`
    : undefined;
  const rows = await accountRows(db, and(matches, afterCursor(users, query.cursor)), query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function accountById(db: DbOrTx, id: string) {
  const [row] = await accountRows(db, eq(users.id, id), 1);
  return row ?? null;
}

export async function accountParts(db: DbOrTx, id: string, referredBy: string | null) {
  const [onboarding, sessions, ownLinks, latestOrders, ownPayouts, campaign, auditEntries] =
    await Promise.all([
      db
        .select({
          kind: onboardingProfiles.kind,
          firstName: onboardingProfiles.firstName,
          lastName: onboardingProfiles.lastName,
          companyName: onboardingProfiles.companyName,
          country: onboardingProfiles.country,
        })
        .from(onboardingProfiles)
        .where(eq(onboardingProfiles.userId, id)),
      db
        .select({
          id: identitySessions.id,
          provider: identitySessions.provider,
          status: identitySessions.status,
          reason: identitySessions.reason,
          createdAt: identitySessions.createdAt,
          decidedAt: identitySessions.decidedAt,
        })
        .from(identitySessions)
        .where(eq(identitySessions.userId, id))
        .orderBy(desc(identitySessions.createdAt)),
      db
        .select({
          id: links.id,
          title: links.title,
          token: links.token,
          status: links.status,
          priceMinor: links.priceMinor,
          currency: links.currency,
          salesCount: links.salesCount,
          deletedAt: links.deletedAt,
        })
        .from(links)
        .where(eq(links.ownerId, id))
        .orderBy(desc(links.createdAt))
        .limit(100),
      db
        .select({
          id: orders.id,
          totalMinor: orders.totalMinor,
          currency: orders.currency,
          status: orders.status,
          paidAt: orders.paidAt,
          buyerEmail: orders.buyerEmail,
        })
        .from(orders)
        .where(eq(orders.creatorId, id))
        .orderBy(desc(orders.createdAt))
        .limit(20),
      db
        .select({
          id: payouts.id,
          status: payouts.status,
          amountMinor: payouts.amountMinor,
          currency: payouts.currency,
          requestedAt: payouts.requestedAt,
        })
        .from(payouts)
        .where(eq(payouts.userId, id))
        .orderBy(desc(payouts.requestedAt))
        .limit(20),
      referredBy
        ? db
            .select({ id: campaigns.id, name: campaigns.name })
            .from(campaigns)
            .where(eq(campaigns.id, referredBy))
        : Promise.resolve([]),
      auditList(db, { targetType: "account", targetId: id, limit: 50 }),
    ]);
  return {
    onboarding: onboarding[0] ?? null,
    identitySessions: sessions.map((s) => ({
      ...s,
      createdAt: s.createdAt.toISOString(),
      decidedAt: s.decidedAt?.toISOString() ?? null,
    })),
    links: ownLinks.map(({ deletedAt, ...l }) => ({ ...l, deleted: deletedAt !== null })),
    orders: latestOrders.map(({ buyerEmail, paidAt, ...o }) => ({
      ...o,
      paidAt: paidAt?.toISOString() ?? null,
      buyer: maskEmail(buyerEmail),
    })),
    payouts: ownPayouts.map((p) => ({ ...p, requestedAt: p.requestedAt.toISOString() })),
    referredBy: campaign[0] ?? null,
    audit: auditEntries.items,
  };
}

/** The tokens of an account's links and its profiles: the public pages a suspension changes. */
export async function publicPagesOf(db: DbOrTx, userId: string) {
  const [tokens, profiles] = await Promise.all([
    db.select({ token: links.token }).from(links).where(eq(links.ownerId, userId)),
    db
      .select({ id: creatorProfiles.id, handle: creatorProfiles.handle })
      .from(creatorProfiles)
      .where(eq(creatorProfiles.ownerId, userId)),
  ]);
  return { tokens: tokens.map((t) => t.token), profiles };
}

export async function identityList(db: DbOrTx, query: AdminIdentityListQuery): Promise<AdminIdentityList> {
  const rows = await db
    .select({
      id: identitySessions.id,
      provider: identitySessions.provider,
      status: identitySessions.status,
      reason: identitySessions.reason,
      createdAt: identitySessions.createdAt,
      decidedAt: identitySessions.decidedAt,
      accountId: users.id,
      email: users.email,
    })
    .from(identitySessions)
    .innerJoin(users, eq(users.id, identitySessions.userId))
    .where(
      and(
        query.status ? eq(identitySessions.status, query.status) : undefined,
        afterCursor(identitySessions, query.cursor),
      ),
    )
    .orderBy(desc(identitySessions.createdAt), desc(identitySessions.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(({ accountId, email, createdAt, decidedAt, ...s }) => ({
      ...s,
      createdAt: createdAt.toISOString(),
      decidedAt: decidedAt?.toISOString() ?? null,
      account: { id: accountId, email },
    })),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * The account's role and suspension, and where to tell its owner, its row locked so two admins
 * acting on it at once are ordered.
 */
export async function lockAccountRow(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      id: users.id,
      role: users.role,
      suspendedAt: users.suspendedAt,
      email: users.email,
      locale: users.locale,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .for("update");
  return row ?? null;
}

export async function setAccountSuspended(db: DbOrTx, id: string, suspended: boolean): Promise<void> {
  await db
    .update(users)
    .set({ suspendedAt: suspended ? new Date() : null, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function setAccountRole(db: DbOrTx, id: string, role: AdminRoleBody["role"]): Promise<void> {
  await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

/** Whether the account is suspended (a missing account counts as not suspended: callers 404 it). */
export async function isSuspended(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.suspendedAt)));
  return row !== undefined;
}

/**
 * The account's suspension as its owner sees it (issue 23): since when, and the reason the admin gave
 * (the audit row the suspension wrote in the same transaction, so there is always one). Null when
 * the account is not suspended.
 */
export async function suspensionOf(
  db: DbOrTx,
  userId: string,
): Promise<{ reason: string; since: string } | null> {
  const [row] = await db
    .select({ since: users.suspendedAt, reason: adminAuditLog.reason })
    .from(users)
    .leftJoin(
      adminAuditLog,
      and(
        eq(adminAuditLog.targetType, "account"),
        eq(adminAuditLog.targetId, sql`${users.id}::text`),
        eq(adminAuditLog.action, "account.suspend"),
      ),
    )
    .where(and(eq(users.id, userId), isNotNull(users.suspendedAt)))
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(1);
  if (!row?.since) return null;
  return { reason: row.reason ?? "", since: row.since.toISOString() };
}
