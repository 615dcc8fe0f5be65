import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client.ts";
import { creatorProfiles, files, links, portfolioEntries } from "../../db/schema/index.ts";

/*
 * Plain query functions. Every owner-side query carries the owner's id in its `where`, so a row of
 * another account is simply not found (the routes answer 404 and reveal nothing). The public reads
 * (by token, by handle or id) are in public/queries.ts.
 */

export const profileColumns = {
  id: creatorProfiles.id,
  displayName: creatorProfiles.displayName,
  handle: creatorProfiles.handle,
  bio: creatorProfiles.bio,
  avatarFileId: creatorProfiles.avatarFileId,
  socialLinks: creatorProfiles.socialLinks,
  createdAt: creatorProfiles.createdAt,
  updatedAt: creatorProfiles.updatedAt,
};
export type ProfileRow = Pick<typeof creatorProfiles.$inferSelect, keyof typeof profileColumns>;

const linkBaseColumns = {
  id: links.id,
  profileId: links.profileId,
  fileId: links.fileId,
  coverFileId: links.coverFileId,
  title: links.title,
  description: links.description,
  priceMinor: links.priceMinor,
  currency: links.currency,
  stockLimit: links.stockLimit,
  refundWindowDays: links.refundWindowDays,
  pricesIncludeVat: links.pricesIncludeVat,
  status: links.status,
  token: links.token,
  salesCount: links.salesCount,
  createdAt: links.createdAt,
  updatedAt: links.updatedAt,
};

/** The sold file and the cover image of a link, joined under the link owner's id only. */
export const contentFiles = alias(files, "content_files");
export const coverFiles = alias(files, "cover_files");

/** A link as its owner sees it: its own columns, the sold file's metadata and public renditions. */
export const linkColumns = {
  ...linkBaseColumns,
  fileKind: contentFiles.kind,
  fileContentType: contentFiles.contentType,
  fileSizeBytes: contentFiles.sizeBytes,
  fileOriginalName: contentFiles.originalName,
  fileCreatedAt: contentFiles.createdAt,
  previewKey: contentFiles.previewKey,
  coverKey: coverFiles.coverKey,
};

/** Links with their files; every caller adds the owner's id (or the public filter) to the where. */
function selectLinks(db: DbOrTx) {
  return db
    .select(linkColumns)
    .from(links)
    .leftJoin(contentFiles, and(eq(contentFiles.id, links.fileId), eq(contentFiles.ownerId, links.ownerId)))
    .leftJoin(coverFiles, and(eq(coverFiles.id, links.coverFileId), eq(coverFiles.ownerId, links.ownerId)));
}
export type LinkRow = Awaited<ReturnType<ReturnType<typeof selectLinks>["execute"]>>[number];

// ---------------------------------------------------------------------------------------------
// Files

/** One of the owner's files, with what tells whether it can serve as a cover or an avatar. */
export async function findOwnedFile(db: DbOrTx, params: { ownerId: string; fileId: string }) {
  const [row] = await db
    .select({ id: files.id, kind: files.kind, coverKey: files.coverKey })
    .from(files)
    .where(and(eq(files.id, params.fileId), eq(files.ownerId, params.ownerId)))
    .limit(1);
  return row ?? null;
}

/** The public rendition of each avatar file among `fileIds` (its cover, else an older preview). */
export async function avatarKeysOf(db: DbOrTx, params: { ownerId: string; fileIds: string[] }) {
  if (params.fileIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({ id: files.id, key: sql<string | null>`coalesce(${files.coverKey}, ${files.previewKey})` })
    .from(files)
    .where(and(eq(files.ownerId, params.ownerId), inArray(files.id, params.fileIds)));
  return new Map(rows.map((r) => [r.id, r.key]));
}

// ---------------------------------------------------------------------------------------------
// Profiles

export function listProfiles(db: DbOrTx, params: { ownerId: string }): Promise<ProfileRow[]> {
  return db
    .select(profileColumns)
    .from(creatorProfiles)
    .where(eq(creatorProfiles.ownerId, params.ownerId))
    .orderBy(asc(creatorProfiles.createdAt), asc(creatorProfiles.id));
}

export async function findProfile(
  db: DbOrTx,
  params: { ownerId: string; id: string },
): Promise<ProfileRow | null> {
  const [row] = await db
    .select(profileColumns)
    .from(creatorProfiles)
    .where(and(eq(creatorProfiles.id, params.id), eq(creatorProfiles.ownerId, params.ownerId)))
    .limit(1);
  return row ?? null;
}

export async function insertProfile(
  db: DbOrTx,
  params: {
    ownerId: string;
    displayName: string;
    handle: string;
    bio: string;
    avatarFileId: string | null;
    socialLinks: string[];
  },
): Promise<ProfileRow> {
  const [row] = await db.insert(creatorProfiles).values(params).returning(profileColumns);
  if (!row) throw new Error("profile not inserted");
  return row;
}

export async function updateProfile(
  db: DbOrTx,
  params: {
    ownerId: string;
    id: string;
    set: Partial<Pick<ProfileRow, "displayName" | "handle" | "bio" | "avatarFileId" | "socialLinks">>;
  },
): Promise<ProfileRow | null> {
  const [row] = await db
    .update(creatorProfiles)
    .set({ ...params.set, updatedAt: new Date() })
    .where(and(eq(creatorProfiles.id, params.id), eq(creatorProfiles.ownerId, params.ownerId)))
    .returning(profileColumns);
  return row ?? null;
}

export async function deleteProfile(db: DbOrTx, params: { ownerId: string; id: string }) {
  const rows = await db
    .delete(creatorProfiles)
    .where(and(eq(creatorProfiles.id, params.id), eq(creatorProfiles.ownerId, params.ownerId)))
    .returning({ id: creatorProfiles.id });
  return rows.length > 0;
}

/** Links of a profile that still exist for buyers or their creator (not deleted). */
export async function countLiveLinksOfProfile(db: DbOrTx, params: { ownerId: string; profileId: string }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(links)
    .where(
      and(eq(links.ownerId, params.ownerId), eq(links.profileId, params.profileId), isNull(links.deletedAt)),
    );
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Links

export async function listLinks(
  db: DbOrTx,
  params: { ownerId: string; cursor?: string; limit: number },
): Promise<LinkRow[]> {
  // Keyset on (created_at, id) read from the cursor's own row, so the timestamp keeps its
  // microseconds (a JavaScript Date would round them and skip or repeat rows).
  const after = params.cursor
    ? sql`(${links.createdAt}, ${links.id}) < (select l.created_at, l.id from links l where l.id = ${params.cursor} and l.owner_id = ${params.ownerId})`
    : undefined;
  return selectLinks(db)
    .where(and(eq(links.ownerId, params.ownerId), isNull(links.deletedAt), after))
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(params.limit);
}

export async function findLink(db: DbOrTx, params: { ownerId: string; id: string }): Promise<LinkRow | null> {
  const [row] = await selectLinks(db)
    .where(and(eq(links.id, params.id), eq(links.ownerId, params.ownerId), isNull(links.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Moderation's takedown: "removed" for good, whatever the link's status was (its owner cannot undo it). */
export async function setLinkRemoved(db: DbOrTx, params: { ownerId: string; id: string }): Promise<boolean> {
  const rows = await db
    .update(links)
    .set({ status: "removed", updatedAt: new Date() })
    .where(and(eq(links.id, params.id), eq(links.ownerId, params.ownerId), isNull(links.deletedAt)))
    .returning({ id: links.id });
  return rows.length > 0;
}

export async function insertLink(
  db: DbOrTx,
  params: {
    ownerId: string;
    profileId: string;
    fileId: string | null;
    coverFileId: string | null;
    title: string;
    description: string;
    priceMinor: number;
    currency: LinkRow["currency"];
    stockLimit: number | null;
    refundWindowDays: number;
    pricesIncludeVat: boolean;
    token: string;
  },
): Promise<string> {
  const [row] = await db.insert(links).values(params).returning({ id: links.id });
  if (!row) throw new Error("link not inserted");
  return row.id;
}

export type LinkChanges = Partial<
  Pick<
    LinkRow,
    | "profileId"
    | "fileId"
    | "coverFileId"
    | "title"
    | "description"
    | "priceMinor"
    | "currency"
    | "stockLimit"
    | "refundWindowDays"
    | "pricesIncludeVat"
    | "status"
  >
>;

/**
 * Changes a live link of the owner. A removed link's status is moderation's: the `where` refuses
 * any status change on it, even if a caller forgot to check.
 */
export async function updateLink(
  db: DbOrTx,
  params: { ownerId: string; id: string; set: LinkChanges },
): Promise<boolean> {
  const rows = await db
    .update(links)
    .set({ ...params.set, updatedAt: new Date() })
    .where(
      and(
        eq(links.id, params.id),
        eq(links.ownerId, params.ownerId),
        isNull(links.deletedAt),
        params.set.status ? ne(links.status, "removed") : undefined,
      ),
    )
    .returning({ id: links.id });
  return rows.length > 0;
}

/** Archives a link that has sales (orders keep pointing at it); erases one without. */
export async function deleteLink(db: DbOrTx, params: { ownerId: string; id: string }) {
  const owned = and(eq(links.id, params.id), eq(links.ownerId, params.ownerId), isNull(links.deletedAt));
  const erased = await db
    .delete(links)
    .where(and(owned, eq(links.salesCount, 0)))
    .returning({ id: links.id });
  if (erased.length > 0) return true;
  const archived = await db
    .update(links)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(owned)
    .returning({ id: links.id });
  if (archived.length === 0) return false;
  // An archived link leaves the creator page; its promo restrictions stay for the records.
  await db.delete(portfolioEntries).where(eq(portfolioEntries.linkId, params.id));
  return true;
}

/** The owner's live links among `ids`, with what the portfolio and promo rules need. */
export function findOwnedLinks(db: DbOrTx, params: { ownerId: string; ids: string[] }) {
  if (params.ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: links.id, profileId: links.profileId, status: links.status })
    .from(links)
    .where(and(eq(links.ownerId, params.ownerId), inArray(links.id, params.ids), isNull(links.deletedAt)));
}

// ---------------------------------------------------------------------------------------------
// Portfolio

export async function portfolioLinkIds(db: DbOrTx, params: { ownerId: string; profileId: string }) {
  const rows = await db
    .select({ linkId: portfolioEntries.linkId })
    .from(portfolioEntries)
    .innerJoin(creatorProfiles, eq(creatorProfiles.id, portfolioEntries.profileId))
    .where(and(eq(portfolioEntries.profileId, params.profileId), eq(creatorProfiles.ownerId, params.ownerId)))
    .orderBy(asc(portfolioEntries.position));
  return rows.map((r) => r.linkId);
}

/** Replaces a profile's portfolio; the caller has checked that the profile and links are the owner's. */
export async function replacePortfolio(db: DbOrTx, params: { profileId: string; linkIds: string[] }) {
  await db.delete(portfolioEntries).where(eq(portfolioEntries.profileId, params.profileId));
  if (params.linkIds.length === 0) return;
  await db
    .insert(portfolioEntries)
    .values(params.linkIds.map((linkId, position) => ({ profileId: params.profileId, linkId, position })));
}

/**
 * Puts a link last on a profile's portfolio: a new link (or one moved to that profile) is on its
 * creator page by default, and the creator orders or hides it in the portfolio (issue 17).
 */
export async function appendToPortfolio(db: DbOrTx, params: { profileId: string; linkId: string }) {
  await db
    .insert(portfolioEntries)
    .values({
      profileId: params.profileId,
      linkId: params.linkId,
      position: sql`(select coalesce(max(${portfolioEntries.position}), -1) + 1 from ${portfolioEntries} where ${portfolioEntries.profileId} = ${params.profileId})`,
    })
    .onConflictDoNothing();
}

/** Takes a link off every portfolio but its own profile's (after a move, the old page drops it). */
export async function removeFromOtherPortfolios(db: DbOrTx, params: { profileId: string; linkId: string }) {
  await db
    .delete(portfolioEntries)
    .where(and(eq(portfolioEntries.linkId, params.linkId), ne(portfolioEntries.profileId, params.profileId)));
}

/** Tokens of a profile's live links: their pages show the profile and are refreshed with it. */
export async function liveLinkTokensOfProfile(db: DbOrTx, params: { profileId: string }) {
  const rows = await db
    .select({ token: links.token })
    .from(links)
    .where(and(eq(links.profileId, params.profileId), isNull(links.deletedAt)));
  return rows.map((r) => r.token);
}
