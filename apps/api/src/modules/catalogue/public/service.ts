import { type CreatorPage, fileKindSchema, linkTokenSchema, type PublicLink } from "@salelink/contracts";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.ts";
import { notFound } from "../../../lib/errors.ts";
import type { StockState } from "../../checkout/reservations.ts";
import { nextFreeUnit } from "../../checkout/stock-queries.ts";
import { creatorTags, linkTag } from "../revalidate.ts";
import { type CatalogueDeps, mediaPath } from "../service.ts";
import * as q from "./queries.ts";

/*
 * What buyers see: a link before paying and a creator's page. Both are hot paths (one query each,
 * plus one index probe per limited stock), cached per instance in `deps.publicCache`.
 */

type PublicLinkRow = q.PublicLinkRow;

const unlimited: StockState = { state: "available" };

/**
 * A link as buyers see it. What a limited stock has left comes from the units checkout claims
 * (checkout/stock-queries.ts), so the page and checkout never disagree.
 */
function toPublicLink(row: PublicLinkRow, stocks: Map<string, StockState>): PublicLink {
  const stock = row.stockLimit === null ? unlimited : (stocks.get(row.id) ?? { state: "sold-out" });
  return {
    token: row.token,
    title: row.title,
    description: row.description,
    priceMinor: row.priceMinor,
    currency: row.currency,
    status: row.status,
    previewUrl: mediaPath(row.previewKey),
    coverUrl: mediaPath(row.coverKey),
    fileKind: row.fileKind ? fileKindSchema.catch("other").parse(row.fileKind) : null,
    soldOut: stock.state === "sold-out",
    reservedOut: stock.state === "reserved-out",
    availableAgainAt: stock.state === "reserved-out" ? stock.availableAgainAt.toISOString() : null,
    refundWindowDays: row.refundWindowDays,
    pricesIncludeVat: row.pricesIncludeVat,
    creator: {
      id: row.creatorId,
      displayName: row.creatorDisplayName,
      handle: row.creatorHandle,
      avatarUrl: mediaPath(row.creatorAvatarKey),
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

/** The stock state of the limited links among these (the others are always for sale). */
function stocksOf(deps: Pick<CatalogueDeps, "db">, rows: PublicLinkRow[]) {
  return nextFreeUnit(
    deps.db,
    rows.filter((r) => r.stockLimit !== null).map((r) => r.id),
  );
}

export function publicLink(deps: CatalogueDeps, token: string): Promise<PublicLink> {
  return deps.publicCache.links.get(linkTag(token), async () => {
    const row = await findOnSaleLink(deps.db, token);
    return toPublicLink(row, await stocksOf(deps, [row]));
  });
}

export function creatorPage(deps: CatalogueDeps, idOrHandle: string): Promise<CreatorPage> {
  const key = creatorTags({ id: idOrHandle.toLowerCase() })[0] ?? "";
  return deps.publicCache.creators.get(key, () => loadCreatorPage(deps, idOrHandle));
}

/** `/c/{idOrHandle}`'s profile key: an id when it is one, else a handle (handles are lower-case). */
export const profileKeyOf = (idOrHandle: string): q.ProfileKey =>
  z.uuid().safeParse(idOrHandle).success ? { id: idOrHandle } : { handle: idOrHandle.toLowerCase() };

async function loadCreatorPage(deps: CatalogueDeps, idOrHandle: string): Promise<CreatorPage> {
  const { db } = deps;
  const profile = await q.findPublicProfile(db, profileKeyOf(idOrHandle));
  if (!profile) throw notFound("Creator");
  const rows = await q.publicPortfolio(db, { profileId: profile.id });
  const stocks = await stocksOf(deps, rows);
  return {
    profile: {
      id: profile.id,
      displayName: profile.displayName,
      handle: profile.handle,
      avatarUrl: mediaPath(profile.avatarKey),
      bio: profile.bio,
      socialLinks: profile.socialLinks,
    },
    links: rows.map((row) => toPublicLink(row, stocks)),
  };
}
