import {
  type MembershipStats,
  PARTNER_LINKS_SHOWN,
  type PartnerList,
  type PartnerListQuery,
  type PartnerStats,
} from "@salelink/contracts";
import type { Db } from "../../../db/client.ts";
import { findProgramme, linksOnSale } from "../queries.ts";
import { myMembership } from "../service.ts";
import { type FiguresRow, membershipDays, membershipFigures } from "./queries.ts";

/*
 * What creators and partners see of a programme's sales (issue 20): each partner's clicks, sales,
 * revenue and commissions for the creator's partners screen, and a partner's own figures, chart and
 * links for one programme.
 */

const statsOf = (row: FiguresRow): PartnerStats => ({
  clicks: row.clicks,
  botClicks: row.botClicks,
  filteredClicks: row.filteredClicks,
  sales: row.sales,
  refunds: row.refunds,
  blocked: [
    { reason: "self-purchase" as const, sales: row.blockedSelf },
    { reason: "shared-signals" as const, sales: row.blockedShared },
  ].filter((b) => b.sales > 0),
  money: row.money,
});

/** The creator's partners with their figures, sorted and paged as asked. */
export async function listPartners(db: Db, creatorId: string, query: PartnerListQuery): Promise<PartnerList> {
  const rows = await membershipFigures(
    db,
    { creatorId, ...(query.status ? { status: query.status } : {}) },
    query,
  );
  const total = rows[0]?.total ?? 0;
  return {
    items: rows.map((row) => ({
      id: row.id,
      partnerId: row.partnerId,
      email: row.email,
      status: row.status,
      code: row.code,
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      removedAt: row.removedAt?.toISOString() ?? null,
      stats: statsOf(row),
    })),
    total,
    nextOffset: query.offset + rows.length < total ? query.offset + rows.length : null,
  };
}

const dayMs = 86_400_000;

/** Every UTC day from `days - 1` days ago to today, oldest first. */
function lastDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * dayMs).toISOString().slice(0, 10),
  );
}

/** One of my programmes as its partner: figures, a chart of `days` days, and links to share. */
export async function membershipStats(
  db: Db,
  partnerId: string,
  membershipId: string,
  days: number,
  now: Date = new Date(),
): Promise<MembershipStats> {
  const membership = await myMembership(db, partnerId, membershipId);
  const period = lastDays(days, now);
  const [figures, dayRows, programme, onSale] = await Promise.all([
    membershipFigures(
      db,
      { partnerId, membershipId },
      { sort: "createdAt", dir: "desc", offset: 0, limit: 1 },
    ),
    membershipDays(db, { membershipId, fromDay: period[0] ?? "1970-01-01" }),
    findProgramme(db, { creatorId: membership.creator.id }),
    // Only an active partner of an enabled programme has links worth sharing.
    membership.status === "active" && membership.programmeEnabled
      ? linksOnSale(db, { creatorId: membership.creator.id, limit: PARTNER_LINKS_SHOWN })
      : Promise.resolve([]),
  ]);
  const [row] = figures;
  if (!row) throw new Error(`membership ${membershipId} has no figures row`);
  const byDay = new Map(dayRows.map((d) => [d.date, d]));
  const defaultRate = programme?.defaultRateBps ?? membership.defaultRateBps;
  return {
    membership,
    stats: statsOf(row),
    days: period.map((date) => byDay.get(date) ?? { date, clicks: 0, sales: 0, commission: [] }),
    links: onSale.map((l) => ({
      token: l.token,
      title: l.title,
      priceMinor: l.priceMinor,
      currency: l.currency,
      rateBps: l.rateBps ?? defaultRate,
    })),
  };
}
