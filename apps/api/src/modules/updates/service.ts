import type {
  UnsubscribeView,
  UpdateAudience,
  UpdateComposeBody,
  UpdateList,
  UpdateView,
} from "@salelink/contracts";
import { UPDATES_SHOWN } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { creatorDisplays } from "../partners/queries.ts";
import { updateBatchJob } from "./jobs.ts";
import * as q from "./queries.ts";
import { customerOfToken } from "./tokens.ts";

/*
 * Updates to buyers (issue 21, decision 038): a creator writes to the buyers of one link or of all
 * their links, at most UPDATES_PER_DAY a rolling day; the job queue sends it batch by batch
 * (jobs.ts); a buyer leaves a creator's updates with the link every e-mail carries, no account needed.
 */

export interface UpdatesDeps {
  db: Db;
  config: Config;
  /** Wakes the job worker once the update's first batch is queued. */
  pokeJobs(): void;
}

const DAY_MS = 24 * 3_600_000;

const linkNotFound = () => new AppError("NotFoundException", "This link is not one of yours.");
const updateNotFound = () => new AppError("NotFoundException", "Update not found.");
const tokenInvalid = () =>
  new AppError("NotFoundException", "This unsubscribe link is not valid. Use the one in the e-mail.");

function viewOf(row: q.UpdateListRow): UpdateView {
  return {
    id: row.id,
    subject: row.subject,
    body: row.body,
    linkId: row.linkId,
    linkTitle: row.linkTitle,
    locale: row.locale,
    status: row.status,
    recipients: row.recipients,
    sent: row.sent,
    failed: row.failed,
    unsubscribed: row.skipped,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The link's buyers, or all the creator's; a link that is not theirs is a 404. */
async function audienceOf(db: Db, creatorId: string, linkId: string | null, before: Date) {
  const link = linkId ? await q.creatorLink(db, { creatorId, linkId }) : null;
  if (linkId && !link) throw linkNotFound();
  return { audience: { creatorId, linkId, before }, link };
}

export async function updateAudience(db: Db, creatorId: string, linkId?: string): Promise<UpdateAudience> {
  const { audience } = await audienceOf(db, creatorId, linkId ?? null, new Date());
  return q.audienceCounts(db, audience);
}

/**
 * Writes the update and queues its first batch, unless the creator already sent UPDATES_PER_DAY
 * in the last 24 hours (429, saying when the next one is possible). The audience is the buyers
 * who had paid by now; its size is counted here, and the e-mails sign with the name buyers know
 * (the link's profile, else the creator's first one, else the account's address).
 */
export async function composeUpdate(
  deps: UpdatesDeps,
  creator: { id: string; email: string },
  input: UpdateComposeBody,
): Promise<UpdateView> {
  const now = new Date();
  const { audience, link } = await audienceOf(deps.db, creator.id, input.linkId, now);
  const displays = await creatorDisplays(deps.db, { ownerIds: [creator.id] });
  const id = await deps.db.transaction(async (tx) => {
    await q.lockCreatorUpdates(tx, creator.id);
    const recent = await q.updatesSince(tx, {
      creatorId: creator.id,
      since: new Date(now.getTime() - DAY_MS),
    });
    if (recent.count >= deps.config.UPDATES_PER_DAY) {
      const next = (recent.oldest?.getTime() ?? now.getTime()) + DAY_MS;
      const seconds = Math.max(1, Math.ceil((next - now.getTime()) / 1000));
      throw new AppError(
        "RateLimitException",
        "You can send {max} updates a day. The next one is possible in {hours} h.",
        {
          headers: { "retry-after": String(seconds) },
          params: { max: deps.config.UPDATES_PER_DAY, hours: Math.max(1, Math.ceil(seconds / 3600)) },
        },
      );
    }
    const { recipients } = await q.audienceCounts(tx, audience);
    const profileName = link?.profileId
      ? await q.profileName(tx, { ownerId: creator.id, profileId: link.profileId })
      : null;
    const row = await q.insertUpdate(tx, {
      creatorId: creator.id,
      linkId: input.linkId,
      subject: input.subject,
      body: input.body,
      locale: input.locale,
      senderName: profileName ?? displays.get(creator.id)?.displayName ?? creator.email,
      recipients,
      createdAt: now,
    });
    await updateBatchJob.enqueue(tx, { updateId: row.id }, { dedupeKey: `buyer-update:${row.id}:0` });
    return row.id;
  });
  deps.pokeJobs();
  return getUpdate(deps.db, creator.id, id);
}

export async function getUpdate(db: Db, creatorId: string, id: string): Promise<UpdateView> {
  const row = await q.getUpdate(db, { creatorId, id });
  if (!row) throw updateNotFound();
  return viewOf(row);
}

/** The creator's updates, newest first, and how many more today allows. */
export async function listUpdates(deps: UpdatesDeps, creatorId: string): Promise<UpdateList> {
  const [rows, recent] = await Promise.all([
    q.listUpdates(deps.db, { creatorId, limit: UPDATES_SHOWN }),
    q.updatesSince(deps.db, { creatorId, since: new Date(Date.now() - DAY_MS) }),
  ]);
  return {
    items: rows.map(viewOf),
    remainingToday: Math.max(0, deps.config.UPDATES_PER_DAY - recent.count),
  };
}

async function customerOf(deps: UpdatesDeps, token: string) {
  const customerId = customerOfToken(deps.config.appSecret, token);
  const customer = customerId ? await q.customerById(deps.db, customerId) : null;
  if (!customer) throw tokenInvalid();
  return customer;
}

/** What the unsubscribe page shows: whose updates, and whether already left. Changes nothing. */
export async function describeUnsubscribe(deps: UpdatesDeps, token: string): Promise<UnsubscribeView> {
  const customer = await customerOf(deps, token);
  const displays = await creatorDisplays(deps.db, { ownerIds: [customer.creatorId] });
  return {
    creator: displays.get(customer.creatorId)?.displayName ?? null,
    unsubscribed: customer.unsubscribedAt !== null,
  };
}

/** Leaves the creator's updates for good (idempotent): no batch from now on e-mails this buyer. */
export async function unsubscribe(deps: UpdatesDeps, token: string): Promise<UnsubscribeView> {
  const customer = await customerOf(deps, token);
  await q.unsubscribeCustomer(deps.db, customer.id);
  const displays = await creatorDisplays(deps.db, { ownerIds: [customer.creatorId] });
  return { creator: displays.get(customer.creatorId)?.displayName ?? null, unsubscribed: true };
}
