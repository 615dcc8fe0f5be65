import { randomBytes } from "node:crypto";
import {
  type CreateLinkBody,
  type CreateProfileBody,
  type CreatorProfile,
  fileKindSchema,
  type Link,
  type LinkListQuery,
  type LinkListResponse,
  type SetProductTitleBody,
  type UpdateLinkBody,
  type UpdateProfileBody,
} from "@salelink/contracts";
import { minorToDecimal } from "@salelink/contracts/money";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { AppError, notFound, validation } from "../../lib/errors.ts";
import { isUniqueViolation } from "../../lib/pg-errors.ts";
import { setUnitsForLimit } from "../checkout/stock-queries.ts";
import type { PublicCache } from "./public/cache.ts";
import * as q from "./queries.ts";
import { creatorTags, linkTag, queueRevalidate } from "./revalidate.ts";

export interface CatalogueDeps {
  db: Db;
  config: Config;
  publicCache: PublicCache;
}

/**
 * Runs an edit in a transaction. The public pages it names with `refresh` are refreshed: the web
 * app is told through a job queued in the same transaction, and this instance's cache forgets them
 * once the transaction has committed (not before, or a read in between would cache the old row).
 */
async function editing<T>(
  deps: CatalogueDeps,
  work: (tx: Tx, refresh: (tags: Iterable<string>) => Promise<void>) => Promise<T>,
): Promise<T> {
  const tags = new Set<string>();
  const result = await deps.db.transaction((tx) =>
    work(tx, async (more) => {
      const list = [...more];
      for (const tag of list) tags.add(tag);
      await queueRevalidate(tx, deps.config, list);
    }),
  );
  deps.publicCache.links.invalidate(tags);
  deps.publicCache.creators.invalidate(tags);
  return result;
}

/** 128 random bits: unguessable, and short enough for a shared URL (22 base64url characters). */
export const newLinkToken = (): string => randomBytes(16).toString("base64url");

const iso = (d: Date): string => d.toISOString();

function toProfile(row: q.ProfileRow, avatars: Map<string, string | null>): CreatorProfile {
  const avatarKey = row.avatarFileId ? (avatars.get(row.avatarFileId) ?? null) : null;
  return {
    ...row,
    avatarUrl: mediaPath(avatarKey),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

async function withAvatars(db: DbOrTx, ownerId: string, rows: q.ProfileRow[]): Promise<CreatorProfile[]> {
  const fileIds = rows.flatMap((r) => (r.avatarFileId ? [r.avatarFileId] : []));
  const avatars = await q.avatarKeysOf(db, { ownerId, fileIds });
  return rows.map((row) => toProfile(row, avatars));
}

async function withAvatar(db: DbOrTx, ownerId: string, row: q.ProfileRow): Promise<CreatorProfile> {
  const [profile] = await withAvatars(db, ownerId, [row]);
  if (!profile) throw new Error("profile lost");
  return profile;
}

/** The public path of a stored rendition; the API serves `previews/…` and `covers/…` under /media. */
export const mediaPath = (key: string | null): string | null => (key ? `/media/${key}` : null);

function toLink(row: q.LinkRow): Link {
  const { fileKind, fileContentType, fileSizeBytes, fileOriginalName, fileCreatedAt, previewKey, coverKey } =
    row;
  return {
    id: row.id,
    profileId: row.profileId,
    fileId: row.fileId,
    coverFileId: row.coverFileId,
    title: row.title,
    description: row.description,
    priceMinor: row.priceMinor,
    currency: row.currency,
    stockLimit: row.stockLimit,
    refundWindowDays: row.refundWindowDays,
    pricesIncludeVat: row.pricesIncludeVat,
    status: row.status,
    token: row.token,
    salesCount: row.salesCount,
    file:
      row.fileId && fileKind && fileContentType && fileSizeBytes !== null && fileOriginalName && fileCreatedAt
        ? {
            id: row.fileId,
            kind: fileKindSchema.catch("other").parse(fileKind),
            contentType: fileContentType,
            sizeBytes: fileSizeBytes,
            originalName: fileOriginalName,
            createdAt: iso(fileCreatedAt),
          }
        : null,
    previewUrl: mediaPath(previewKey),
    coverUrl: mediaPath(coverKey),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

async function assertOwnFile(db: DbOrTx, ownerId: string, fileId: string | null | undefined) {
  // Another account's file is "not found", like an unknown one: its existence is not revealed.
  if (fileId && !(await q.findOwnedFile(db, { ownerId, fileId }))) throw notFound("File");
}

/** Avatars and covers are shown as is: only an image uploaded for that use has the rendition. */
async function assertOwnImage(
  db: DbOrTx,
  ownerId: string,
  field: "avatarFileId" | "coverFileId",
  fileId: string | null | undefined,
) {
  if (!fileId) return;
  const file = await q.findOwnedFile(db, { ownerId, fileId });
  if (!file) throw notFound("File");
  if (!file.coverKey) throw validation({ [field]: ["Upload an image for this."] });
}

const handleTaken = () => validation({ handle: ["This handle is already taken."] });

// ---------------------------------------------------------------------------------------------
// Profiles

export async function listProfiles(db: Db, ownerId: string): Promise<CreatorProfile[]> {
  return withAvatars(db, ownerId, await q.listProfiles(db, { ownerId }));
}

export async function createProfile(
  deps: CatalogueDeps,
  ownerId: string,
  body: CreateProfileBody,
): Promise<CreatorProfile> {
  await assertOwnImage(deps.db, ownerId, "avatarFileId", body.avatarFileId);
  try {
    // A page for this handle may have been cached as "not found" just before.
    return await editing(deps, async (tx, refresh) => {
      const row = await q.insertProfile(tx, { ownerId, ...body });
      await refresh(creatorTags(row));
      return withAvatar(tx, ownerId, row);
    });
  } catch (err) {
    if (isUniqueViolation(err, "creator_profiles_handle_idx", { orUnnamed: true })) throw handleTaken();
    throw err;
  }
}

/** The pages that show a profile: its creator page (by id and both handles) and its links' pages. */
async function profilePageTags(tx: DbOrTx, profile: { id: string; handle: string }, oldHandle?: string) {
  const tokens = await q.liveLinkTokensOfProfile(tx, { profileId: profile.id });
  return [
    ...creatorTags(profile),
    ...(oldHandle ? creatorTags({ id: profile.id, handle: oldHandle }) : []),
    ...tokens.map(linkTag),
  ];
}

export async function updateProfile(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  body: UpdateProfileBody,
): Promise<CreatorProfile> {
  await assertOwnImage(deps.db, ownerId, "avatarFileId", body.avatarFileId);
  try {
    return await editing(deps, async (tx, refresh) => {
      const before = await q.findProfile(tx, { ownerId, id });
      const row = before ? await q.updateProfile(tx, { ownerId, id, set: body }) : null;
      if (!before || !row) throw notFound("Profile");
      await refresh(await profilePageTags(tx, row, before.handle));
      return withAvatar(tx, ownerId, row);
    });
  } catch (err) {
    if (isUniqueViolation(err, "creator_profiles_handle_idx", { orUnnamed: true })) throw handleTaken();
    throw err;
  }
}

/**
 * Refused while the profile has links that are not deleted: active ones are on sale, and paused or
 * removed ones would be left without a creator page to return to.
 */
export async function deleteProfile(deps: CatalogueDeps, ownerId: string, id: string): Promise<void> {
  await editing(deps, async (tx, refresh) => {
    const profile = await q.findProfile(tx, { ownerId, id });
    if (!profile) throw notFound("Profile");
    if ((await q.countLiveLinksOfProfile(tx, { ownerId, profileId: id })) > 0) {
      throw new AppError(
        "ConflictException",
        "This profile still has links: delete them or move them first.",
      );
    }
    await q.deleteProfile(tx, { ownerId, id });
    await refresh(creatorTags(profile));
  });
}

// ---------------------------------------------------------------------------------------------
// Links

function assertPrice(config: Config, priceMinor: number | undefined) {
  const { linkPriceMinMinor: min, linkPriceMaxMinor: max } = config.rules;
  if (priceMinor !== undefined && (priceMinor < min || priceMinor > max)) {
    // Amounts shown as decimals: the limits apply to every currency's minor units alike.
    throw validation({ priceMinor: ["The price must be between {min} and {max}."] }, undefined, {
      min: minorToDecimal(min, 2),
      max: minorToDecimal(max, 2),
    });
  }
}

async function assertOwnProfile(db: DbOrTx, ownerId: string, profileId: string | undefined) {
  if (profileId && !(await q.findProfile(db, { ownerId, id: profileId }))) throw notFound("Profile");
}

export async function listLinks(db: Db, ownerId: string, query: LinkListQuery): Promise<LinkListResponse> {
  // One extra row tells whether another page follows without a count query.
  const rows = await q.listLinks(db, {
    ownerId,
    limit: query.limit + 1,
    ...(query.cursor ? { cursor: query.cursor } : {}),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toLink), nextCursor: rows.length > query.limit && last ? last.id : null };
}

export async function getLink(db: DbOrTx, ownerId: string, id: string): Promise<Link> {
  const row = await q.findLink(db, { ownerId, id });
  if (!row) throw notFound("Link");
  return toLink(row);
}

async function assertLinkFiles(
  db: DbOrTx,
  ownerId: string,
  body: Pick<UpdateLinkBody, "fileId" | "coverFileId">,
) {
  await assertOwnFile(db, ownerId, body.fileId);
  await assertOwnImage(db, ownerId, "coverFileId", body.coverFileId);
}

/** The pages a link appears on: its own and its profile's creator page (by id and handle). */
async function linkPageTags(tx: DbOrTx, ownerId: string, link: { token: string; profileId: string | null }) {
  const tags = [linkTag(link.token)];
  const profile = link.profileId ? await q.findProfile(tx, { ownerId, id: link.profileId }) : null;
  if (profile) tags.push(...creatorTags(profile));
  return tags;
}

export async function createLink(deps: CatalogueDeps, ownerId: string, body: CreateLinkBody): Promise<Link> {
  assertPrice(deps.config, body.priceMinor);
  await assertOwnProfile(deps.db, ownerId, body.profileId);
  await assertLinkFiles(deps.db, ownerId, body);
  // A collision of 128 random bits will not happen; one retry covers the impossible anyway.
  for (let attempt = 0; ; attempt++) {
    try {
      return await editing(deps, async (tx, refresh) => {
        const id = await q.insertLink(tx, { ownerId, ...body, token: newLinkToken() });
        if (body.stockLimit !== null) await stockUnits(tx, deps.config, id, body.stockLimit);
        await q.appendToPortfolio(tx, { profileId: body.profileId, linkId: id });
        const link = await getLink(tx, ownerId, id);
        await refresh(await linkPageTags(tx, ownerId, link));
        return link;
      });
    } catch (err) {
      if (attempt > 0 || !isUniqueViolation(err, "links_token_idx", { orUnnamed: true })) throw err;
    }
  }
}

export async function updateLink(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  body: UpdateLinkBody,
): Promise<Link> {
  assertPrice(deps.config, body.priceMinor);
  await assertOwnProfile(deps.db, ownerId, body.profileId);
  await assertLinkFiles(deps.db, ownerId, body);
  return changeLink(deps, ownerId, id, body);
}

/** "Set product title": the one field a creator renames in place from the list. */
export function setProductTitle(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  body: SetProductTitleBody,
): Promise<Link> {
  return changeLink(deps, ownerId, id, { title: body.title });
}

export function setLinkPaused(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  paused: boolean,
): Promise<Link> {
  return changeLink(deps, ownerId, id, { status: paused ? "paused" : "active" });
}

/**
 * A limited link's stock is one row per unit (checkout/stock-queries.ts, decision 032): setting,
 * raising, lowering or removing the limit adds or removes units; sold ones always stay.
 */
const stockUnits = (tx: Tx, config: Config, linkId: string, limit: number | null) =>
  setUnitsForLimit(tx, { linkId, limit, minutes: config.CHECKOUT_RESERVATION_MINUTES });

async function changeLink(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  set: q.LinkChanges,
): Promise<Link> {
  return editing(deps, async (tx, refresh) => {
    const current = await q.findLink(tx, { ownerId, id });
    if (!current) throw notFound("Link");
    if (set.status && current.status === "removed") {
      throw new AppError(
        "ConflictException",
        "This link was removed by moderation; it cannot be put back on sale.",
      );
    }
    if (!(await q.updateLink(tx, { ownerId, id, set }))) throw notFound("Link");
    // After the update, which holds the link's row: two edits of one limit never interleave.
    if (set.stockLimit !== undefined && set.stockLimit !== current.stockLimit) {
      await stockUnits(tx, deps.config, id, set.stockLimit);
    }
    const link = await getLink(tx, ownerId, id);
    if (link.profileId && link.profileId !== current.profileId) {
      await q.removeFromOtherPortfolios(tx, { profileId: link.profileId, linkId: id });
      await q.appendToPortfolio(tx, { profileId: link.profileId, linkId: id });
    }
    // Moving a link to another profile changes two creator pages.
    const tags = [...(await linkPageTags(tx, ownerId, current)), ...(await linkPageTags(tx, ownerId, link))];
    await refresh(tags);
    return link;
  });
}

/**
 * Moderation takes a link down (the admin console's reports): no more sales, its page gives 404,
 * buyers who paid keep their orders. Its public pages are refreshed as after an edit; `alongside`
 * runs in the same transaction (the report's handling and its audit entry).
 */
export async function removeLink<T>(
  deps: CatalogueDeps,
  ownerId: string,
  id: string,
  alongside: (tx: Tx) => Promise<T>,
): Promise<T> {
  return editing(deps, async (tx, refresh) => {
    const current = await q.findLink(tx, { ownerId, id });
    if (!current || !(await q.setLinkRemoved(tx, { ownerId, id }))) throw notFound("Link");
    const result = await alongside(tx);
    await refresh(await linkPageTags(tx, ownerId, current));
    return result;
  });
}

export async function deleteLink(deps: CatalogueDeps, ownerId: string, id: string): Promise<void> {
  await editing(deps, async (tx, refresh) => {
    const current = await q.findLink(tx, { ownerId, id });
    if (!current || !(await q.deleteLink(tx, { ownerId, id }))) throw notFound("Link");
    await refresh(await linkPageTags(tx, ownerId, current));
  });
}

// ---------------------------------------------------------------------------------------------
// Portfolio

export async function getPortfolio(db: Db, ownerId: string, profileId: string): Promise<string[]> {
  if (!(await q.findProfile(db, { ownerId, id: profileId }))) throw notFound("Profile");
  return q.portfolioLinkIds(db, { ownerId, profileId });
}

export async function setPortfolio(
  deps: CatalogueDeps,
  ownerId: string,
  profileId: string,
  linkIds: string[],
) {
  return editing(deps, async (tx, refresh) => {
    const profile = await q.findProfile(tx, { ownerId, id: profileId });
    if (!profile) throw notFound("Profile");
    const found = new Map((await q.findOwnedLinks(tx, { ownerId, ids: linkIds })).map((l) => [l.id, l]));
    const errors: Record<string, string[]> = {};
    linkIds.forEach((linkId, i) => {
      const link = found.get(linkId);
      if (!link) throw notFound("Link");
      if (link.profileId !== profileId) errors[`linkIds.${i}`] = ["This link belongs to another profile."];
      else if (link.status !== "active") errors[`linkIds.${i}`] = ["Only active links can be shown."];
    });
    if (Object.keys(errors).length > 0) throw validation(errors);
    await q.replacePortfolio(tx, { profileId, linkIds });
    await refresh(creatorTags(profile));
    return q.portfolioLinkIds(tx, { ownerId, profileId });
  });
}
