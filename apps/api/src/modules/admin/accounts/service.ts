import type {
  AdminAccountDetail,
  AdminAccountList,
  AdminAccountListQuery,
  AdminAccountSummary,
  AdminIdentityList,
  AdminIdentityListQuery,
  AdminRoleBody,
} from "@salelink/contracts";
import type { Config } from "../../../config.ts";
import type { Db, Tx } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import type { PublicCache } from "../../catalogue/public/cache.ts";
import { creatorTags, linkTag, queueRevalidate } from "../../catalogue/revalidate.ts";
import { queueMail } from "../../mail/jobs.ts";
import { balancesOf } from "../../wallet/ledger.ts";
import {
  accountById,
  accountParts,
  identityList,
  lockAccountRow,
  publicPagesOf,
  searchAccounts,
  setAccountRole,
  setAccountSuspended,
  toSummary,
} from "./queries.ts";

export interface AdminDeps {
  db: Db;
  config: Config;
  /** The catalogue's cache of public pages: a suspension changes what they show. */
  publicCache: PublicCache;
}

const accountNotFound = () => new AppError("NotFoundException", "This account was not found.");

export const findAccounts = (db: Db, query: AdminAccountListQuery): Promise<AdminAccountList> =>
  searchAccounts(db, query);

export const identityChecks = (db: Db, query: AdminIdentityListQuery): Promise<AdminIdentityList> =>
  identityList(db, query);

/** The audit log, read only: it is written through audit() inside each action's transaction. */

export async function accountDetail(db: Db, id: string): Promise<AdminAccountDetail> {
  const row = await accountById(db, id);
  if (!row) throw accountNotFound();
  const [parts, balances] = await Promise.all([
    accountParts(db, id, row.referredByCampaignId),
    balancesOf(db, id),
  ]);
  return {
    ...toSummary(row),
    ...parts,
    balances: balances.map((b) => ({ account: b.account, currency: b.currency, amount: b.balanceMinor })),
  };
}

/** Locks the account's row so two admins acting on it at once are ordered. */
async function lockAccount(tx: Tx, id: string) {
  const row = await lockAccountRow(tx, id);
  if (!row) throw accountNotFound();
  return row;
}

/**
 * Suspends or reinstates an account, with its audit row, in one transaction. Its sessions stay
 * (the owner still sees their wallet); what changes is public: its links stop selling and its
 * pages answer 404, so the web app's cached pages and this instance's are dropped as an edit does.
 * The owner is told by e-mail, in their language, with the admin's reason and the next step
 * (issue 23): the reason is the creator's to read (`suspensionOf` shows it in their wallet too).
 */
export async function setSuspended(
  deps: AdminDeps,
  actorId: string,
  id: string,
  suspended: boolean,
  reason: string,
): Promise<AdminAccountSummary> {
  if (suspended && actorId === id) {
    throw new AppError("ConflictException", "You cannot suspend your own account.");
  }
  const tags = new Set<string>();
  await deps.db.transaction(async (tx) => {
    const row = await lockAccount(tx, id);
    if (suspended && row.suspendedAt)
      throw new AppError("ConflictException", "This account is already suspended.");
    if (!suspended && !row.suspendedAt)
      throw new AppError("ConflictException", "This account is not suspended.");
    await setAccountSuspended(tx, id, suspended);
    await audit(tx, {
      actorId,
      action: suspended ? "account.suspend" : "account.reinstate",
      targetType: "account",
      targetId: id,
      reason,
    });
    // An erased account has no address left to write to. One e-mail per action, in its transaction.
    if (!row.deletedAt) {
      await queueMail(tx, {
        to: row.email,
        locale: row.locale,
        template: suspended ? "account-suspended" : "account-reinstated",
        params: { reason, url: new URL("/account/wallet", deps.config.WEB_ORIGIN).toString() },
      });
    }
    const pages = await publicPagesOf(tx, id);
    for (const token of pages.tokens) tags.add(linkTag(token));
    for (const profile of pages.profiles) for (const tag of creatorTags(profile)) tags.add(tag);
    await queueRevalidate(tx, deps.config, tags);
  });
  // After the commit, or a read in between would cache the page as it was.
  deps.publicCache.links.invalidate(tags);
  deps.publicCache.creators.invalidate(tags);
  return summaryOf(deps.db, id);
}

export async function setRole(
  db: Db,
  actorId: string,
  id: string,
  body: AdminRoleBody,
): Promise<AdminAccountSummary> {
  if (actorId === id && body.role !== "admin") {
    throw new AppError("ConflictException", "You cannot remove your own admin role.");
  }
  await db.transaction(async (tx) => {
    const row = await lockAccount(tx, id);
    if (row.role === body.role)
      throw new AppError("ConflictException", "This account already has this role.");
    await setAccountRole(tx, id, body.role);
    await audit(tx, {
      actorId,
      action: "account.role",
      targetType: "account",
      targetId: id,
      reason: body.reason,
      details: { from: row.role, to: body.role },
    });
  });
  return summaryOf(db, id);
}

async function summaryOf(db: Db, id: string): Promise<AdminAccountSummary> {
  const row = await accountById(db, id);
  if (!row) throw accountNotFound();
  return toSummary(row);
}
