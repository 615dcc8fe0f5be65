import { type CreatorPage, fileKindSchema, linkTokenSchema, type PublicLink } from "@salelink/contracts";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { DbOrTx } from "../../../db/client.ts";
import { notFound } from "../../../lib/errors.ts";
import { heldOnLinks } from "../../checkout/queries.ts";
import { type Held, stockState } from "../../checkout/reservations.ts";
import { creatorTags, linkTag } from "../revalidate.ts";
import { type CatalogueDeps, mediaPath } from "../service.ts";
import * as q from "./queries.ts";

/*
 * What buyers see: a link before paying and a creator's page. Both are hot paths (one query each,
 * plus the reservations of a limited stock), cached per instance in `deps.publicCache`.
 */

type PublicLinkRow = q.PublicLinkRow;

/**
 * A link as buyers see it. What a limited stock has left comes from the rule checkout applies
 * (checkout/reservations.ts), so the page and checkout never disagree.
 */
function toPublicLink(config: Config, row: PublicLinkRow, held: Map<string, Held>): PublicLink {
  const stock = stockState(config, row.stockLimit, row.salesCount, held.get(row.id));
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

/** The live reservations of the limited links among these (the others hold nothing). */
function heldOn(deps: Pick<CatalogueDeps, "db" | "config">, rows: PublicLinkRow[]) {
  const limited = rows.filter((r) => r.stockLimit !== null && r.salesCount < r.stockLimit).map((r) => r.id);
  return heldOnLinks(deps.db, deps.config, limited);
}

export function publicLink(deps: CatalogueDeps, token: string): Promise<PublicLink> {
  return deps.publicCache.links.get(linkTag(token), async () => {
    const row = await findOnSaleLink(deps.db, token);
    return toPublicLink(deps.config, row, await heldOn(deps, [row]));
  });
}

export function creatorPage(deps: CatalogueDeps, idOrHandle: string): Promise<CreatorPage> {
  const key = creatorTags({ id: idOrHandle.toLowerCase() })[0] ?? "";
  return deps.publicCache.creators.get(key, () => loadCreatorPage(deps, idOrHandle));
}

async function loadCreatorPage(deps: CatalogueDeps, idOrHandle: string): Promise<CreatorPage> {
  const { db } = deps;
  const isId = z.uuid().safeParse(idOrHandle).success;
  const profile = await q.findPublicProfile(
    db,
    isId ? { id: idOrHandle } : { handle: idOrHandle.toLowerCase() },
  );
  if (!profile) throw notFound("Creator");
  const rows = await q.publicPortfolio(db, { profileId: profile.id });
  const held = await heldOn(deps, rows);
  return {
    profile: {
      id: profile.id,
      displayName: profile.displayName,
      handle: profile.handle,
      avatarUrl: mediaPath(profile.avatarKey),
      bio: profile.bio,
      socialLinks: profile.socialLinks,
    },
    links: rows.map((row) => toPublicLink(deps.config, row, held)),
  };
}
