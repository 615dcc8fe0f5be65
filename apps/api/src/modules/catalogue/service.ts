import { randomBytes } from "node:crypto";
import {
  type CreateLinkBody,
  type CreateProfileBody,
  type CreatorPage,
  type CreatorProfile,
  type Link,
  type LinkListQuery,
  type LinkListResponse,
  linkTokenSchema,
  type PublicLink,
  type UpdateLinkBody,
  type UpdateProfileBody,
} from "@salelink/contracts";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError, notFound, validation } from "../../lib/errors.ts";
import * as q from "./queries.ts";

export interface CatalogueDeps {
  db: Db;
  config: Config;
}

/** 128 random bits: unguessable, and short enough for a shared URL (22 base64url characters). */
export const newLinkToken = (): string => randomBytes(16).toString("base64url");

/** A unique index refused the row (PostgreSQL 23505), from PGlite or node-postgres through drizzle. */
export function isUniqueViolation(err: unknown, index: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgErr = e as Error & { code?: string; constraint?: string };
    if (pgErr.code === "23505") return pgErr.constraint === undefined || pgErr.constraint === index;
  }
  return false;
}

const iso = (d: Date): string => d.toISOString();

function toProfile(row: q.ProfileRow): CreatorProfile {
  return { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

function toLink(row: q.LinkRow): Link {
  return { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

async function assertOwnFile(db: DbOrTx, ownerId: string, fileId: string | null | undefined) {
  // Another account's file is "not found", like an unknown one: its existence is not revealed.
  if (fileId && !(await q.fileIsOwnedBy(db, { ownerId, fileId }))) throw notFound("File");
}

const handleTaken = () => validation({ handle: ["This handle is already taken."] });

// ---------------------------------------------------------------------------------------------
// Profiles

export async function listProfiles(db: Db, ownerId: string): Promise<CreatorProfile[]> {
  return (await q.listProfiles(db, { ownerId })).map(toProfile);
}

export async function createProfile(
  db: Db,
  ownerId: string,
  body: CreateProfileBody,
): Promise<CreatorProfile> {
  await assertOwnFile(db, ownerId, body.avatarFileId);
  try {
    return toProfile(await q.insertProfile(db, { ownerId, ...body }));
  } catch (err) {
    if (isUniqueViolation(err, "creator_profiles_handle_idx")) throw handleTaken();
    throw err;
  }
}

export async function updateProfile(
  db: Db,
  ownerId: string,
  id: string,
  body: UpdateProfileBody,
): Promise<CreatorProfile> {
  await assertOwnFile(db, ownerId, body.avatarFileId);
  try {
    const row = await q.updateProfile(db, { ownerId, id, set: body });
    if (!row) throw notFound("Profile");
    return toProfile(row);
  } catch (err) {
    if (isUniqueViolation(err, "creator_profiles_handle_idx")) throw handleTaken();
    throw err;
  }
}

/**
 * Refused while the profile has links that are not deleted: active ones are on sale, and paused or
 * removed ones would be left without a creator page to return to.
 */
export async function deleteProfile(db: Db, ownerId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await q.findProfile(tx, { ownerId, id }))) throw notFound("Profile");
    if ((await q.countLiveLinksOfProfile(tx, { ownerId, profileId: id })) > 0) {
      throw new AppError(
        "ConflictException",
        "This profile still has links: delete them or move them first.",
      );
    }
    await q.deleteProfile(tx, { ownerId, id });
  });
}

// ---------------------------------------------------------------------------------------------
// Links

function assertPrice(config: Config, priceMinor: number | undefined) {
  const { linkPriceMinMinor: min, linkPriceMaxMinor: max } = config.rules;
  if (priceMinor !== undefined && (priceMinor < min || priceMinor > max)) {
    // Amounts shown as decimals: the limits apply to every currency's minor units alike.
    throw validation({ priceMinor: ["The price must be between {min} and {max}."] }, undefined, {
      min: (min / 100).toFixed(2),
      max: (max / 100).toFixed(2),
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

export async function getLink(db: Db, ownerId: string, id: string): Promise<Link> {
  const row = await q.findLink(db, { ownerId, id });
  if (!row) throw notFound("Link");
  return toLink(row);
}

export async function createLink(deps: CatalogueDeps, ownerId: string, body: CreateLinkBody): Promise<Link> {
  assertPrice(deps.config, body.priceMinor);
  await assertOwnProfile(deps.db, ownerId, body.profileId);
  await assertOwnFile(deps.db, ownerId, body.fileId);
  // A collision of 128 random bits will not happen; one retry covers the impossible anyway.
  for (let attempt = 0; ; attempt++) {
    try {
      return toLink(await q.insertLink(deps.db, { ownerId, ...body, token: newLinkToken() }));
    } catch (err) {
      if (attempt > 0 || !isUniqueViolation(err, "links_token_idx")) throw err;
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
  await assertOwnFile(deps.db, ownerId, body.fileId);
  return changeLink(deps.db, ownerId, id, body);
}

export function setLinkPaused(db: Db, ownerId: string, id: string, paused: boolean): Promise<Link> {
  return changeLink(db, ownerId, id, { status: paused ? "paused" : "active" });
}

async function changeLink(db: Db, ownerId: string, id: string, set: q.LinkChanges): Promise<Link> {
  return db.transaction(async (tx) => {
    const current = await q.findLink(tx, { ownerId, id });
    if (!current) throw notFound("Link");
    if (set.status && current.status === "removed") {
      throw new AppError(
        "ConflictException",
        "This link was removed by moderation; it cannot be put back on sale.",
      );
    }
    const row = await q.updateLink(tx, { ownerId, id, set });
    if (!row) throw notFound("Link");
    return toLink(row);
  });
}

export async function deleteLink(db: Db, ownerId: string, id: string): Promise<void> {
  const done = await db.transaction((tx) => q.deleteLink(tx, { ownerId, id }));
  if (!done) throw notFound("Link");
}

// ---------------------------------------------------------------------------------------------
// Portfolio

export async function getPortfolio(db: Db, ownerId: string, profileId: string): Promise<string[]> {
  if (!(await q.findProfile(db, { ownerId, id: profileId }))) throw notFound("Profile");
  return q.portfolioLinkIds(db, { ownerId, profileId });
}

export async function setPortfolio(db: Db, ownerId: string, profileId: string, linkIds: string[]) {
  return db.transaction(async (tx) => {
    if (!(await q.findProfile(tx, { ownerId, id: profileId }))) throw notFound("Profile");
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
    return q.portfolioLinkIds(tx, { ownerId, profileId });
  });
}

// ---------------------------------------------------------------------------------------------
// Public reads

type PublicLinkRow = NonNullable<Awaited<ReturnType<typeof q.findPublicLink>>>;

function toPublicLink(row: PublicLinkRow, avatars: Map<string, string | null>): PublicLink {
  return {
    token: row.token,
    title: row.title,
    description: row.description,
    priceMinor: row.priceMinor,
    currency: row.currency,
    status: row.status,
    previewKey: row.previewKey,
    coverKey: row.coverKey,
    creator: {
      id: row.creatorId,
      displayName: row.creatorDisplayName,
      handle: row.creatorHandle,
      avatarKey: row.creatorAvatarFileId ? (avatars.get(row.creatorAvatarFileId) ?? null) : null,
    },
  };
}

/** An active link by its token; malformed tokens are "not found" too, without a database trip. */
export async function findOnSaleLink(db: DbOrTx, token: string): Promise<PublicLinkRow> {
  if (!linkTokenSchema.safeParse(token).success) throw notFound("Link");
  const row = await q.findPublicLink(db, { token });
  if (!row) throw notFound("Link");
  return row;
}

export async function publicLink(db: Db, token: string): Promise<PublicLink> {
  const row = await findOnSaleLink(db, token);
  const avatars = await q.avatarKeys(db, {
    fileIds: row.creatorAvatarFileId ? [row.creatorAvatarFileId] : [],
  });
  return toPublicLink(row, avatars);
}

export async function creatorPage(db: Db, idOrHandle: string): Promise<CreatorPage> {
  const isId = z.uuid().safeParse(idOrHandle).success;
  const profile = await q.findPublicProfile(
    db,
    isId ? { id: idOrHandle } : { handle: idOrHandle.toLowerCase() },
  );
  if (!profile) throw notFound("Creator");
  const rows = await q.publicPortfolio(db, { profileId: profile.id });
  const avatars = await q.avatarKeys(db, { fileIds: profile.avatarFileId ? [profile.avatarFileId] : [] });
  const avatarKey = profile.avatarFileId ? (avatars.get(profile.avatarFileId) ?? null) : null;
  return {
    profile: {
      id: profile.id,
      displayName: profile.displayName,
      handle: profile.handle,
      avatarKey,
      bio: profile.bio,
      socialLinks: profile.socialLinks,
    },
    links: rows.map((row) => toPublicLink(row, avatars)),
  };
}
