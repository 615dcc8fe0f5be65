import type { PartnerJoinMode, PartnerLinkRate, PartnerMembershipStatus } from "@salelink/contracts";
import { and, asc, desc, eq, gt, gte, inArray, isNull, ne, notExists, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import {
  creatorProfiles,
  links,
  partnerInvitations,
  partnerLinkRates,
  partnerMemberships,
  partnerProgrammes,
  users,
} from "../../db/schema/index.ts";
import { type ProfileKey, profileIs } from "../catalogue/public/queries.ts";

/*
 * Every query of the partner programmes. Creator-side queries carry the creator's id in their
 * `where` (a membership of another programme is simply not found); partner-side ones the partner's.
 */

// ---------------------------------------------------------------------------------------------
// Programmes

const programmeColumns = {
  creatorId: partnerProgrammes.creatorId,
  enabled: partnerProgrammes.enabled,
  defaultRateBps: partnerProgrammes.defaultRateBps,
  windowDays: partnerProgrammes.windowDays,
  joinMode: partnerProgrammes.joinMode,
  description: partnerProgrammes.description,
  terms: partnerProgrammes.terms,
  createdAt: partnerProgrammes.createdAt,
  updatedAt: partnerProgrammes.updatedAt,
};
export type ProgrammeRow = typeof partnerProgrammes.$inferSelect;
export type ProgrammeValues = Pick<
  ProgrammeRow,
  "enabled" | "defaultRateBps" | "windowDays" | "joinMode" | "description" | "terms"
>;

/** An account that can run a programme or take part in one: neither suspended nor deleted. */
const accountInGoodStanding = (id: typeof partnerProgrammes.creatorId | typeof creatorProfiles.ownerId) =>
  sql`not exists (select 1 from ${users} where ${users.id} = ${id}
    and (${users.suspendedAt} is not null or ${users.deletedAt} is not null))`;

export async function findProgramme(db: DbOrTx, params: { creatorId: string }): Promise<ProgrammeRow | null> {
  const [row] = await db
    .select(programmeColumns)
    .from(partnerProgrammes)
    .where(eq(partnerProgrammes.creatorId, params.creatorId))
    .limit(1);
  return row ?? null;
}

/** A programme others may join or read: saved, and its creator's account in good standing. */
export async function findLiveProgramme(db: DbOrTx, params: { creatorId: string }) {
  const [row] = await db
    .select(programmeColumns)
    .from(partnerProgrammes)
    .where(
      and(
        eq(partnerProgrammes.creatorId, params.creatorId),
        accountInGoodStanding(partnerProgrammes.creatorId),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function saveProgramme(
  db: DbOrTx,
  params: { creatorId: string; values: ProgrammeValues },
): Promise<ProgrammeRow> {
  const set = { ...params.values, updatedAt: new Date() };
  const [row] = await db
    .insert(partnerProgrammes)
    .values({ creatorId: params.creatorId, ...set })
    .onConflictDoUpdate({ target: partnerProgrammes.creatorId, set })
    .returning(programmeColumns);
  if (!row) throw new Error("partner programme not saved");
  return row;
}

/**
 * The creator's programme row, made with the defaults when never saved, locked until the end of the
 * transaction: invitations of one creator are counted and added one at a time.
 */
export async function lockProgramme(db: DbOrTx, params: { creatorId: string }): Promise<ProgrammeRow> {
  await db.insert(partnerProgrammes).values({ creatorId: params.creatorId }).onConflictDoNothing();
  const [row] = await db
    .select(programmeColumns)
    .from(partnerProgrammes)
    .where(eq(partnerProgrammes.creatorId, params.creatorId))
    .for("update");
  if (!row) throw new Error("partner programme not found after insert");
  return row;
}

export function linkRatesOf(db: DbOrTx, params: { creatorId: string }): Promise<PartnerLinkRate[]> {
  return db
    .select({ linkId: partnerLinkRates.linkId, rateBps: partnerLinkRates.rateBps })
    .from(partnerLinkRates)
    .where(eq(partnerLinkRates.creatorId, params.creatorId))
    .orderBy(asc(partnerLinkRates.linkId));
}

/** Replaces the creator's per-link rates; the caller checked the links are the creator's own. */
export async function replaceLinkRates(db: DbOrTx, params: { creatorId: string; rates: PartnerLinkRate[] }) {
  await db.delete(partnerLinkRates).where(eq(partnerLinkRates.creatorId, params.creatorId));
  if (params.rates.length === 0) return;
  await db
    .insert(partnerLinkRates)
    .values(params.rates.map((r) => ({ creatorId: params.creatorId, linkId: r.linkId, rateBps: r.rateBps })));
}

/** Which of `ids` are the owner's live links (not deleted, not taken down). */
export async function liveLinkIds(db: DbOrTx, params: { ownerId: string; ids: string[] }): Promise<string[]> {
  if (params.ids.length === 0) return [];
  const rows = await db
    .select({ id: links.id })
    .from(links)
    .where(
      and(
        eq(links.ownerId, params.ownerId),
        inArray(links.id, params.ids),
        isNull(links.deletedAt),
        ne(links.status, "removed"),
      ),
    );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Creators as partners see them

export interface CreatorDisplay {
  ownerId: string;
  profileId: string;
  displayName: string;
  handle: string;
}

/** Each creator's oldest profile (the one partners see), for the creators among `ownerIds` that have one. */
export async function creatorDisplays(
  db: DbOrTx,
  params: { ownerIds: string[] },
): Promise<Map<string, CreatorDisplay>> {
  const out = new Map<string, CreatorDisplay>();
  if (params.ownerIds.length === 0) return out;
  const rows = await db
    .selectDistinctOn([creatorProfiles.ownerId], {
      ownerId: creatorProfiles.ownerId,
      profileId: creatorProfiles.id,
      displayName: creatorProfiles.displayName,
      handle: creatorProfiles.handle,
    })
    .from(creatorProfiles)
    .where(inArray(creatorProfiles.ownerId, [...new Set(params.ownerIds)]))
    .orderBy(asc(creatorProfiles.ownerId), asc(creatorProfiles.createdAt), asc(creatorProfiles.id));
  for (const row of rows) out.set(row.ownerId, row);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Memberships

const membershipColumns = {
  id: partnerMemberships.id,
  creatorId: partnerMemberships.creatorId,
  partnerId: partnerMemberships.partnerId,
  status: partnerMemberships.status,
  code: partnerMemberships.code,
  createdAt: partnerMemberships.createdAt,
  decidedAt: partnerMemberships.decidedAt,
  removedAt: partnerMemberships.removedAt,
};
export type MembershipRow = typeof partnerMemberships.$inferSelect;

export async function findMembership(
  db: DbOrTx,
  params: { creatorId: string; id: string },
): Promise<MembershipRow | null> {
  const [row] = await db
    .select(membershipColumns)
    .from(partnerMemberships)
    .where(and(eq(partnerMemberships.id, params.id), eq(partnerMemberships.creatorId, params.creatorId)))
    .limit(1);
  return row ?? null;
}

/** The partner's membership of one programme, locked: joining and accepting decide on it. */
export async function lockMembershipOf(
  db: DbOrTx,
  params: { creatorId: string; partnerId: string },
): Promise<MembershipRow | null> {
  const [row] = await db
    .select(membershipColumns)
    .from(partnerMemberships)
    .where(
      and(
        eq(partnerMemberships.creatorId, params.creatorId),
        eq(partnerMemberships.partnerId, params.partnerId),
      ),
    )
    .for("update");
  return row ?? null;
}

export async function insertMembership(
  db: DbOrTx,
  params: {
    creatorId: string;
    partnerId: string;
    status: PartnerMembershipStatus;
    code: string;
    decidedAt: Date | null;
  },
): Promise<MembershipRow> {
  const [row] = await db.insert(partnerMemberships).values(params).returning(membershipColumns);
  if (!row) throw new Error("membership not inserted");
  return row;
}

/**
 * Moves a membership of the creator's programme from one of `from` to `to`, in one conditional
 * update (two approvals at once: one wins). Null when it is not the creator's or not in `from`.
 */
export async function moveMembership(
  db: DbOrTx,
  params: {
    creatorId: string;
    id: string;
    from: readonly PartnerMembershipStatus[];
    to: PartnerMembershipStatus;
    at: Date;
  },
): Promise<MembershipRow | null> {
  const set =
    params.to === "removed"
      ? { status: params.to, removedAt: params.at }
      : { status: params.to, decidedAt: params.at, removedAt: null };
  const [row] = await db
    .update(partnerMemberships)
    .set(set)
    .where(
      and(
        eq(partnerMemberships.id, params.id),
        eq(partnerMemberships.creatorId, params.creatorId),
        inArray(partnerMemberships.status, [...params.from]),
      ),
    )
    .returning(membershipColumns);
  return row ?? null;
}

/** Whether an account with this address is an active partner of the creator's programme. */
export async function isActivePartnerByEmail(db: DbOrTx, params: { creatorId: string; email: string }) {
  const [row] = await db
    .select({ id: partnerMemberships.id })
    .from(partnerMemberships)
    .innerJoin(users, eq(users.id, partnerMemberships.partnerId))
    .where(
      and(
        eq(partnerMemberships.creatorId, params.creatorId),
        eq(partnerMemberships.status, "active"),
        eq(users.email, params.email),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The partner's memberships (or one of them), newest first, with each programme's figures (when saved). */
export function myMemberships(
  db: DbOrTx,
  params: { partnerId: string; limit: number; membershipId?: string },
) {
  return db
    .select({
      id: partnerMemberships.id,
      creatorId: partnerMemberships.creatorId,
      status: partnerMemberships.status,
      code: partnerMemberships.code,
      createdAt: partnerMemberships.createdAt,
      decidedAt: partnerMemberships.decidedAt,
      enabled: partnerProgrammes.enabled,
      defaultRateBps: partnerProgrammes.defaultRateBps,
      windowDays: partnerProgrammes.windowDays,
    })
    .from(partnerMemberships)
    .leftJoin(partnerProgrammes, eq(partnerProgrammes.creatorId, partnerMemberships.creatorId))
    .where(
      and(
        eq(partnerMemberships.partnerId, params.partnerId),
        params.membershipId ? eq(partnerMemberships.id, params.membershipId) : undefined,
      ),
    )
    .orderBy(desc(partnerMemberships.createdAt), desc(partnerMemberships.id))
    .limit(params.limit);
}

const joinableModes: PartnerJoinMode[] = ["open", "approval"];

/**
 * Enabled programmes open to join (open or by approval), of creators in good standing with a public
 * profile, that the partner is not in (whatever the status) and that are not their own; newest first.
 */
export function openProgrammes(db: DbOrTx, params: { partnerId: string; limit: number }) {
  return db
    .select(programmeColumns)
    .from(partnerProgrammes)
    .where(
      and(
        eq(partnerProgrammes.enabled, true),
        inArray(partnerProgrammes.joinMode, joinableModes),
        ne(partnerProgrammes.creatorId, params.partnerId),
        accountInGoodStanding(partnerProgrammes.creatorId),
        sql`exists (select 1 from ${creatorProfiles} p where p.owner_id = ${partnerProgrammes.creatorId})`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(partnerMemberships)
            .where(
              and(
                eq(partnerMemberships.creatorId, partnerProgrammes.creatorId),
                eq(partnerMemberships.partnerId, params.partnerId),
              ),
            ),
        ),
      ),
    )
    .orderBy(desc(partnerProgrammes.createdAt), desc(partnerProgrammes.creatorId))
    .limit(params.limit);
}

// ---------------------------------------------------------------------------------------------
// Invitations

/** The creator's invitations made since `since`, and the oldest of them (when the count goes down). */
export async function countInvitationsSince(db: DbOrTx, params: { creatorId: string; since: Date }) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<Date | string | null>`min(${partnerInvitations.createdAt})`,
    })
    .from(partnerInvitations)
    .where(
      and(
        eq(partnerInvitations.creatorId, params.creatorId),
        gte(partnerInvitations.createdAt, params.since),
      ),
    );
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return { count: Number(row?.count ?? 0), oldest };
}

/** Earlier pending invitations of the creator to this address stop working: the newest one counts. */
export async function retirePendingInvitations(
  db: DbOrTx,
  params: { creatorId: string; email: string; now: Date },
) {
  await db
    .update(partnerInvitations)
    .set({ expiresAt: params.now })
    .where(
      and(
        eq(partnerInvitations.creatorId, params.creatorId),
        eq(partnerInvitations.email, params.email),
        isNull(partnerInvitations.acceptedAt),
        gt(partnerInvitations.expiresAt, params.now),
      ),
    );
}

/** Cancels one of the creator's pending invitations; false when there is none such. */
export async function cancelPendingInvitation(
  db: DbOrTx,
  params: { creatorId: string; invitationId: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(partnerInvitations)
    .set({ expiresAt: params.now })
    .where(
      and(
        eq(partnerInvitations.id, params.invitationId),
        eq(partnerInvitations.creatorId, params.creatorId),
        isNull(partnerInvitations.acceptedAt),
        gt(partnerInvitations.expiresAt, params.now),
      ),
    )
    .returning({ id: partnerInvitations.id });
  return rows.length > 0;
}

/**
 * An account's deletion erases the addresses its invitations hold: its own invitations go (they
 * name other people), and invitations to its address lose the address and stop working.
 */
export async function eraseInvitationAddresses(
  db: DbOrTx,
  params: { userId: string; email: string; erased: string },
): Promise<void> {
  await db.delete(partnerInvitations).where(eq(partnerInvitations.creatorId, params.userId));
  await db
    .update(partnerInvitations)
    .set({ email: params.erased, expiresAt: sql`least(${partnerInvitations.expiresAt}, now())` })
    .where(eq(partnerInvitations.email, params.email.toLowerCase()));
}

export async function insertInvitation(
  db: DbOrTx,
  params: { creatorId: string; email: string; tokenHash: string; expiresAt: Date },
) {
  const [row] = await db.insert(partnerInvitations).values(params).returning({
    id: partnerInvitations.id,
    email: partnerInvitations.email,
    createdAt: partnerInvitations.createdAt,
    expiresAt: partnerInvitations.expiresAt,
  });
  if (!row) throw new Error("invitation not inserted");
  return row;
}

/** The creator's invitations neither accepted nor expired, newest first. */
export function pendingInvitations(db: DbOrTx, params: { creatorId: string; now: Date; limit: number }) {
  return db
    .select({
      id: partnerInvitations.id,
      email: partnerInvitations.email,
      createdAt: partnerInvitations.createdAt,
      expiresAt: partnerInvitations.expiresAt,
    })
    .from(partnerInvitations)
    .where(
      and(
        eq(partnerInvitations.creatorId, params.creatorId),
        isNull(partnerInvitations.acceptedAt),
        gt(partnerInvitations.expiresAt, params.now),
      ),
    )
    .orderBy(desc(partnerInvitations.createdAt), desc(partnerInvitations.id))
    .limit(params.limit);
}

/**
 * Uses an invitation once: one conditional update, so two concurrent uses cannot both succeed.
 * Null when the token is unknown, used or expired.
 */
/** A pending invitation by its token's hash (neither spent nor expired), with its creator. */
export async function pendingInvitationByHash(db: DbOrTx, params: { tokenHash: string; now: Date }) {
  const [row] = await db
    .select({ creatorId: partnerInvitations.creatorId, expiresAt: partnerInvitations.expiresAt })
    .from(partnerInvitations)
    .where(
      and(
        eq(partnerInvitations.tokenHash, params.tokenHash),
        isNull(partnerInvitations.acceptedAt),
        gt(partnerInvitations.expiresAt, params.now),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function spendInvitation(db: DbOrTx, params: { tokenHash: string; now: Date; userId: string }) {
  const [row] = await db
    .update(partnerInvitations)
    .set({ acceptedAt: params.now, acceptedBy: params.userId })
    .where(
      and(
        eq(partnerInvitations.tokenHash, params.tokenHash),
        isNull(partnerInvitations.acceptedAt),
        gt(partnerInvitations.expiresAt, params.now),
      ),
    )
    .returning({ id: partnerInvitations.id, creatorId: partnerInvitations.creatorId });
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Public

/**
 * The programme of a creator profile's owner, by the profile's id or handle (as `/c/{id}` finds the
 * profile: see catalogue/public/queries.ts), when the owner is in good standing.
 */
export async function programmeOfProfile(db: DbOrTx, key: ProfileKey) {
  const [row] = await db
    .select(programmeColumns)
    .from(creatorProfiles)
    .innerJoin(partnerProgrammes, eq(partnerProgrammes.creatorId, creatorProfiles.ownerId))
    .where(and(profileIs(key), accountInGoodStanding(creatorProfiles.ownerId)))
    .limit(1);
  return row ?? null;
}

/** The creator's links on sale (active, not deleted), newest first, with their own partner rate. */
export function linksOnSale(db: DbOrTx, params: { creatorId: string; limit: number }) {
  return db
    .select({
      token: links.token,
      title: links.title,
      priceMinor: links.priceMinor,
      currency: links.currency,
      rateBps: partnerLinkRates.rateBps,
    })
    .from(links)
    .leftJoin(
      partnerLinkRates,
      and(eq(partnerLinkRates.linkId, links.id), eq(partnerLinkRates.creatorId, params.creatorId)),
    )
    .where(and(eq(links.ownerId, params.creatorId), eq(links.status, "active"), isNull(links.deletedAt)))
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(params.limit);
}

/** The creator's public profiles (their pages show the programme). */
export function profilesOf(db: DbOrTx, params: { ownerId: string }) {
  return db
    .select({ id: creatorProfiles.id, handle: creatorProfiles.handle })
    .from(creatorProfiles)
    .where(eq(creatorProfiles.ownerId, params.ownerId));
}
