import { randomBytes } from "node:crypto";
import type {
  Campaign,
  CampaignList,
  CampaignStats,
  ClaimResponse,
  Currency,
  campaignStatsQuerySchema,
  createCampaignBodySchema,
  Earning,
  ReferralList,
  updateCampaignBodySchema,
} from "@salelink/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { balancesOf, post } from "../wallet/ledger.ts";
import { commissionClaimed } from "../wallet/postings.ts";
import { freshRollups, refreshSalesRollups } from "../wallet/summary/service.ts";
import { clickCounts, clickDays } from "./clicks/queries.ts";
import { maskEmail, referralPseudonym } from "./pseudonyms.ts";
import type { CampaignRow, Money } from "./queries.ts";
import * as q from "./queries.ts";

/*
 * Campaigns (each with its own `?ref=` token and share link) and claims. Commissions themselves are
 * posted by checkout when a referred account's order is paid, released or refunded; a claim moves
 * the claimable ones into the wallet's available balance, once.
 */

export const campaignNotFound = () => new AppError("NotFoundException", "This campaign was not found.");
export const nothingToClaim = () => new AppError("ConflictException", "Nothing to claim yet.");
const claimUnavailable = () =>
  new AppError("ConflictException", "Your commissions cannot be claimed right now. Please try again later.");

/** How many referred accounts GET /campaigns/referrals lists (the newest). */
export const REFERRALS_SHOWN = 200;

/** 16 base64url characters: 96 random bits, unguessable, and short enough for a share link. */
export const newCampaignToken = () => randomBytes(12).toString("base64url");

export function shareUrl(config: Config, token: string): string {
  const url = new URL("/", config.WEB_ORIGIN);
  url.searchParams.set("ref", token);
  return url.toString();
}

async function withFigures(db: DbOrTx, config: Config, ownerId: string, rows: CampaignRow[]) {
  const ids = rows.map((r) => r.id);
  const [clicks, figures] = await Promise.all([clickCounts(db, ids), q.campaignFigures(db, ownerId, ids)]);
  return rows.map(
    (r): Campaign => ({
      id: r.id,
      name: r.name,
      token: r.token,
      shareUrl: shareUrl(config, r.token),
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      clicks: clicks.get(r.id)?.clicks ?? 0,
      botClicks: clicks.get(r.id)?.botClicks ?? 0,
      filteredClicks: clicks.get(r.id)?.filteredClicks ?? 0,
      signups: 0,
      sales: 0,
      pending: [],
      claimable: [],
      claimed: [],
      ...figures.get(r.id),
    }),
  );
}

export async function createCampaign(
  db: Db,
  config: Config,
  ownerId: string,
  body: z.output<typeof createCampaignBodySchema>,
): Promise<Campaign> {
  const row = await q.insertCampaign(db, { ownerId, name: body.name, token: newCampaignToken() });
  const [campaign] = await withFigures(db, config, ownerId, [row]);
  if (!campaign) throw new Error("campaign lost");
  return campaign;
}

export async function updateCampaign(
  db: Db,
  config: Config,
  ownerId: string,
  id: string,
  body: z.output<typeof updateCampaignBodySchema>,
): Promise<Campaign> {
  const row = await q.updateCampaign(db, {
    ownerId,
    id,
    set: {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
    },
  });
  if (!row) throw campaignNotFound();
  const [campaign] = await withFigures(db, config, ownerId, [row]);
  if (!campaign) throw new Error("campaign lost");
  return campaign;
}

/**
 * GET /campaigns: a read, and only a read. An account's first campaign is made by its sign-up
 * (account-events.ts); one without any (older accounts, or all archived and deleted) sees an empty
 * list and creates one with POST /campaigns.
 */
export async function listCampaigns(db: Db, config: Config, ownerId: string): Promise<CampaignList> {
  // Sales and commissions come from the rollups: refreshed first if older than their maximum age.
  await freshRollups(db, config);
  const rows = await q.campaignsOf(db, ownerId);
  const [items, claimable] = await Promise.all([
    withFigures(db, config, ownerId, rows),
    q.claimableOf(db, ownerId),
  ]);
  const { rules } = config;
  return {
    items,
    claimable,
    rules: {
      commissionBps: rules.affiliateCommissionBps,
      durationMonths: rules.affiliateDurationMonths,
      holdDays: rules.holdDays,
      cookieDays: rules.affiliateCookieDays,
      clicksPerAddress: config.CLICK_ADDRESS_ALLOWANCE,
    },
  };
}

/** The end of a referred account's commission period (as checkout's referrerOf computes it). */
export function earnsUntil(joinedAt: Date, durationMonths: number): Date {
  const until = new Date(joinedAt);
  until.setUTCMonth(until.getUTCMonth() + durationMonths);
  return until;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** GET /campaigns/stats: one row per UTC day, the oldest first, ending today; days without any at zero. */
export async function campaignStats(
  db: Db,
  ownerId: string,
  query: z.output<typeof campaignStatsQuerySchema>,
  now: Date = new Date(),
): Promise<CampaignStats> {
  let ids: string[];
  if (query.campaignId) {
    if (!(await q.campaignOf(db, ownerId, query.campaignId))) throw campaignNotFound();
    ids = [query.campaignId];
  } else {
    ids = (await q.campaignsOf(db, ownerId)).map((c) => c.id);
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates = Array.from({ length: query.days }, (_, i) =>
    isoDay(new Date(today - (query.days - 1 - i) * 86_400_000)),
  );
  const from = dates[0] ?? isoDay(now);
  const [clicks, signups] = await Promise.all([
    clickDays(db, ids, from),
    q.signupDays(db, ownerId, ids, from),
  ]);
  const clicksOn = new Map(clicks.map((c) => [c.date, c]));
  const signupsOn = new Map(signups.map((s) => [s.date, s.signups]));
  return {
    days: dates.map((date) => ({
      date,
      clicks: clicksOn.get(date)?.clicks ?? 0,
      botClicks: clicksOn.get(date)?.botClicks ?? 0,
      filteredClicks: clicksOn.get(date)?.filteredClicks ?? 0,
      signups: signupsOn.get(date) ?? 0,
    })),
  };
}

/** GET /campaigns/referrals: no e-mail, no account id; a pseudonym stable across loads. */
export async function referralList(db: Db, config: Config, ownerId: string): Promise<ReferralList> {
  const rows = await q.referralsOf(db, ownerId, REFERRALS_SHOWN);
  return {
    items: rows.map((r) => ({
      id: referralPseudonym(config.appSecret, r.id),
      account: maskEmail(r.email),
      campaignId: r.campaignId,
      joinedAt: r.joinedAt.toISOString(),
      earnsUntil: earnsUntil(r.joinedAt, config.rules.affiliateDurationMonths).toISOString(),
      sales: r.sales,
      earned: r.earned,
    })),
  };
}

type EarningRow = Awaited<ReturnType<typeof q.earningRows>>[number];

/**
 * What became of a commission: a whole refund reverses it, even after its claim (it is taken back
 * from the referrer's wallet, decision 042); else claimed, or the hold decides.
 */
export function earningStatus(r: Pick<EarningRow, "claimId" | "status" | "releasedAt">): Earning["status"] {
  if (r.status === "refunded") return "reversed";
  if (r.claimId) return "claimed";
  return r.releasedAt ? "claimable" : "pending";
}

/** GET /campaigns/earnings: one row per commission, newest sale first, paged by the last order id. */
export async function listEarnings(
  db: Db,
  ownerId: string,
  query: { cursor?: string | undefined; limit: number },
): Promise<{ items: Earning[]; nextCursor: string | null }> {
  // One extra row tells whether another page follows without a count query.
  const rows = await q.earningRows(db, ownerId, { ...query, limit: query.limit + 1 });
  const items = rows.slice(0, query.limit).map((r): Earning => {
    const paidAt = r.paidAt ?? new Date(0);
    return {
      orderId: r.orderId,
      campaignId: r.campaignId,
      account: maskEmail(r.email),
      saleAmount: r.saleAmount,
      commission: r.commission ?? 0,
      currency: r.currency,
      status: earningStatus(r),
      paidAt: paidAt.toISOString(),
      availableAt: (r.availableAt ?? paidAt).toISOString(),
    };
  });
  return { items, nextCursor: rows.length > query.limit ? (items.at(-1)?.orderId ?? null) : null };
}

/** The orders and the ledger disagree on what is claimable: never post, retry, then refuse. */
class ClaimMismatch extends Error {
  constructor(readonly details: { currency: Currency; orders: number; ledger: number }[]) {
    super("claimable commissions do not match the ledger");
  }
}

async function claimOnce(tx: DbOrTx, userId: string, of: q.CommissionOf): Promise<ClaimResponse> {
  await q.lockClaimant(tx, { userId });
  const claimable = await q.lockClaimableOrders(tx, userId, of);
  const sums = new Map<Currency, number>();
  for (const o of claimable) sums.set(o.currency, (sums.get(o.currency) ?? 0) + (o.commission ?? 0));
  const account = of === "partner" ? "partner_claimable" : "affiliate_claimable";
  const ledger = (await balancesOf(tx, userId)).filter((b) => b.account === account);
  const currencies = new Set([...sums.keys(), ...ledger.map((b) => b.currency)]);
  const mismatches = [...currencies]
    .map((currency) => ({
      currency,
      orders: sums.get(currency) ?? 0,
      ledger: ledger.find((b) => b.currency === currency)?.balanceMinor ?? 0,
    }))
    .filter((m) => m.orders !== m.ledger);
  if (mismatches.length > 0) throw new ClaimMismatch(mismatches);
  const claims: Money = [...sums]
    .filter(([, amount]) => amount > 0)
    .map(([currency, amount]) => ({ currency, amount }))
    .sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency));
  const largest = claims[0];
  if (!largest) throw nothingToClaim();

  const claimId = await q.insertClaim(tx, { userId });
  await q.markClaimed(tx, { claimId, orderIds: claimable.map((o) => o.id), of });
  for (const { currency, amount } of claims) {
    // One ledger transaction per currency: (kind, reference) is unique, so the reference names both.
    const posted = await post(
      tx,
      commissionClaimed({ claimId: `${claimId}:${currency}`, userId, currency, amountMinor: amount, of }),
    );
    if (!posted.created) throw new Error(`claim ${claimId}:${currency} was already posted`);
  }
  return { amount: largest.amount, currency: largest.currency, claims };
}

/**
 * POST /campaigns/claim (a platform referrer's commissions) and POST /programmes/claim (a partner's,
 * `of: "partner"`): everything claimable, per currency, into the available balance, once.
 */
export async function claimCommissions(
  db: Db,
  log: FastifyBaseLogger,
  userId: string,
  of: q.CommissionOf = "affiliate",
): Promise<ClaimResponse> {
  // A hold released between the orders' read and the balance's read looks like a mismatch once;
  // a fresh attempt sees both. A lasting mismatch is a bug to look at, never money to move.
  for (let attempt = 1; ; attempt++) {
    try {
      const claimed = await db.transaction((tx) => claimOnce(tx, userId, of));
      // The claimer's own figures show the claim at once (read your writes), not at the next refresh.
      await db
        .transaction((tx) => refreshSalesRollups(tx))
        .catch((err: unknown) => {
          log.warn({ err }, "rollups not refreshed after a claim; the job will");
        });
      return claimed;
    } catch (err) {
      if (!(err instanceof ClaimMismatch)) throw err;
      if (attempt < 3) continue;
      log.error(
        { userId, of, mismatches: err.details },
        "commission claim refused: orders and ledger disagree",
      );
      throw claimUnavailable();
    }
  }
}
