import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.ts";
import { creatorProfiles, files, links, portfolioEntries, users } from "../../../db/schema/index.ts";
import { contentFiles, coverFiles } from "../queries.ts";

/*
 * Public reads: active links only, public columns only. They go without an owner's id (a buyer
 * comes by token, handle or id), so they never select anything a buyer may not see.
 */

const avatarFiles = alias(files, "avatar_files");

const publicLinkColumns = {
  ownerId: links.ownerId,
  id: links.id,
  token: links.token,
  title: links.title,
  description: links.description,
  priceMinor: links.priceMinor,
  currency: links.currency,
  status: links.status,
  stockLimit: links.stockLimit,
  refundWindowDays: links.refundWindowDays,
  pricesIncludeVat: links.pricesIncludeVat,
  salesCount: links.salesCount,
  previewKey: contentFiles.previewKey,
  fileKind: contentFiles.kind,
  coverKey: coverFiles.coverKey,
  creatorId: creatorProfiles.id,
  creatorDisplayName: creatorProfiles.displayName,
  creatorHandle: creatorProfiles.handle,
  // Avatars uploaded before renditions were per use may only have a preview.
  creatorAvatarKey: sql<string | null>`coalesce(${avatarFiles.coverKey}, ${avatarFiles.previewKey})`,
};

/** A suspended account's links and pages are gone from the public, as a paused link is (issue 8). */
const ownerNotSuspended = (owner: typeof links.ownerId | typeof creatorProfiles.ownerId) =>
  sql`not exists (select 1 from ${users} where ${users.id} = ${owner} and ${users.suspendedAt} is not null)`;
const onSale = and(eq(links.status, "active"), isNull(links.deletedAt), ownerNotSuspended(links.ownerId));

/** Links with their creator and public renditions, in one query: a buyer's page is one round trip. */
function selectPublicLinks(db: DbOrTx) {
  return db
    .select(publicLinkColumns)
    .from(links)
    .innerJoin(creatorProfiles, eq(creatorProfiles.id, links.profileId))
    .leftJoin(contentFiles, and(eq(contentFiles.id, links.fileId), eq(contentFiles.ownerId, links.ownerId)))
    .leftJoin(coverFiles, and(eq(coverFiles.id, links.coverFileId), eq(coverFiles.ownerId, links.ownerId)))
    .leftJoin(
      avatarFiles,
      and(eq(avatarFiles.id, creatorProfiles.avatarFileId), eq(avatarFiles.ownerId, creatorProfiles.ownerId)),
    );
}
export type PublicLinkRow = Awaited<ReturnType<ReturnType<typeof selectPublicLinks>["execute"]>>[number];

/** A link a buyer may see; `ownerId` and `id` are for the server's own use (promo codes), never sent. */
export async function findPublicLink(db: DbOrTx, params: { token: string }) {
  const [row] = await selectPublicLinks(db)
    .where(and(eq(links.token, params.token), onSale))
    .limit(1);
  return row ?? null;
}

/** How `/c/{id}` names a profile: by its id, or by its handle (lower-cased). */
export type ProfileKey = { id: string } | { handle: string };

/** The profile a key names, as a condition (the creator page's, and its partner programme's). */
export const profileIs = (key: ProfileKey) =>
  "id" in key ? eq(creatorProfiles.id, key.id) : eq(creatorProfiles.handle, key.handle);

export async function findPublicProfile(db: DbOrTx, params: ProfileKey) {
  const where = profileIs(params);
  const [row] = await db
    .select({
      id: creatorProfiles.id,
      displayName: creatorProfiles.displayName,
      handle: creatorProfiles.handle,
      bio: creatorProfiles.bio,
      socialLinks: creatorProfiles.socialLinks,
      avatarKey: sql<string | null>`coalesce(${avatarFiles.coverKey}, ${avatarFiles.previewKey})`,
    })
    .from(creatorProfiles)
    .leftJoin(
      avatarFiles,
      and(eq(avatarFiles.id, creatorProfiles.avatarFileId), eq(avatarFiles.ownerId, creatorProfiles.ownerId)),
    )
    .where(and(where, ownerNotSuspended(creatorProfiles.ownerId)))
    .limit(1);
  return row ?? null;
}

/** A profile's portfolio as buyers see it: links no longer on sale drop out. */
export function publicPortfolio(db: DbOrTx, params: { profileId: string }) {
  return selectPublicLinks(db)
    .innerJoin(portfolioEntries, eq(portfolioEntries.linkId, links.id))
    .where(
      and(eq(portfolioEntries.profileId, params.profileId), eq(links.profileId, params.profileId), onSale),
    )
    .orderBy(asc(portfolioEntries.position));
}
