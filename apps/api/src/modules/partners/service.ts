import { randomBytes } from "node:crypto";
import {
  type InvitationPreview,
  type Locale,
  type MembershipResult,
  type MyMembership,
  type OpenProgramme,
  PARTNER_CODE_LENGTH,
  PARTNER_DEFAULT_ENABLED,
  PARTNER_DEFAULT_JOIN_MODE,
  PARTNER_DEFAULT_RATE_BPS,
  PARTNER_DEFAULT_WINDOW_DAYS,
  PARTNER_INVITATION_TTL_DAYS,
  PARTNER_INVITATIONS_PER_DAY,
  PARTNER_INVITATIONS_SHOWN,
  PARTNER_MEMBERSHIPS_SHOWN,
  PARTNER_OPEN_PROGRAMMES_SHOWN,
  type PartnerInvitation,
  type PartnerInvitationList,
  type PartnerProgramme,
  type PartnerProgrammeBody,
  type ProgrammeCreator,
  type Programmes,
  type PublicProgramme,
} from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { isUniqueViolation } from "../../lib/pg-errors.ts";
import { hashToken, randomToken } from "../../lib/tokens.ts";
import { claimableOf } from "../affiliates/queries.ts";
import { profileKeyOf } from "../catalogue/public/service.ts";
import { creatorTags, queueRevalidate } from "../catalogue/revalidate.ts";
import { queueMail } from "../mail/jobs.ts";
import type { PartnerAttributions } from "./attribution/service.ts";
import * as q from "./queries.ts";

/*
 * Creator partner programmes, before money (issue 20): a creator's settings, partners joining
 * (openly, by approval, by invitation) and the lists. Attribution of `?via=` clicks and sales, and
 * the commissions, read these tables later; a rate is stored on each sale when it is made.
 */

export interface PartnerDeps {
  db: Db;
  config: Config;
  /** Checkout's memory of attributions: forgotten when a programme or a membership changes here. */
  attributions?: PartnerAttributions;
  /** Wakes the job worker once a transaction that queued mail has committed. */
  pokeJobs(): void;
}

const DAY_MS = 86_400_000;

const defaults: PartnerProgramme = {
  enabled: PARTNER_DEFAULT_ENABLED,
  defaultRateBps: PARTNER_DEFAULT_RATE_BPS,
  windowDays: PARTNER_DEFAULT_WINDOW_DAYS,
  joinMode: PARTNER_DEFAULT_JOIN_MODE,
  description: "",
  terms: "",
  linkRates: [],
  updatedAt: null,
};

const notOpen = () =>
  new AppError("ForbiddenException", "This programme is not open to new partners right now.");
const ownProgramme = () => new AppError("BadRequestException", "You cannot join your own programme.");
const invalidInvitation = () =>
  new AppError("NotFoundException", "This invitation is invalid or has expired.");
const membershipNotFound = () => new AppError("NotFoundException", "This partner was not found.");

// ---------------------------------------------------------------------------------------------
// The creator's programme

export async function getProgramme(db: DbOrTx, creatorId: string): Promise<PartnerProgramme> {
  const row = await q.findProgramme(db, { creatorId });
  if (!row) return defaults;
  return {
    enabled: row.enabled,
    defaultRateBps: row.defaultRateBps,
    windowDays: row.windowDays,
    joinMode: row.joinMode,
    description: row.description,
    terms: row.terms,
    linkRates: await q.linkRatesOf(db, { creatorId }),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Saves the settings. Only rates from now on change: a sale already attributed keeps the rate
 * stored with it (the money part reads the rate when the sale is made).
 */
export async function saveProgramme(
  deps: Pick<PartnerDeps, "db" | "config">,
  creatorId: string,
  body: PartnerProgrammeBody,
): Promise<PartnerProgramme> {
  return deps.db.transaction(async (tx) => {
    const ids = body.linkRates.map((r) => r.linkId);
    const live = await q.liveLinkIds(tx, { ownerId: creatorId, ids });
    // Another account's link, a deleted or taken-down one, an unknown id: all the same answer.
    if (live.length !== ids.length) {
      throw validation({ linkRates: ["Only your own links can have a partner rate."] });
    }
    await q.saveProgramme(tx, {
      creatorId,
      values: {
        enabled: body.enabled,
        defaultRateBps: body.defaultRateBps,
        windowDays: body.windowDays,
        joinMode: body.joinMode,
        description: body.description,
        terms: body.terms,
      },
    });
    await q.replaceLinkRates(tx, { creatorId, rates: body.linkRates });
    // The creator's pages show "become a partner" from the programme: they change with it.
    const profiles = await q.profilesOf(tx, { ownerId: creatorId });
    await queueRevalidate(tx, deps.config, profiles.flatMap(creatorTags));
    return getProgramme(tx, creatorId);
  });
}

export type PartnerDecision = "approve" | "refuse" | "remove";

/**
 * Approves or refuses an application, or removes a partner. A removed partner's row stays (never a
 * delete): the commissions of their earlier sales stay owed.
 */
export async function decide(
  db: Db,
  creatorId: string,
  membershipId: string,
  decision: PartnerDecision,
): Promise<void> {
  const move =
    decision === "remove"
      ? ({ from: ["active"], to: "removed" } as const)
      : ({ from: ["applied"], to: decision === "approve" ? "active" : "refused" } as const);
  const moved = await q.moveMembership(db, { creatorId, id: membershipId, ...move, at: new Date() });
  if (moved) return;
  // Not moved: someone else's (or unknown), or not in a state this decision applies to.
  if (!(await q.findMembership(db, { creatorId, id: membershipId }))) throw membershipNotFound();
  throw decision === "remove"
    ? new AppError("ConflictException", "Only an active partner can be removed.")
    : new AppError("ConflictException", "Only a pending application can be approved or refused.");
}

// ---------------------------------------------------------------------------------------------
// Invitations

const rateText = (bps: number, locale: Locale) =>
  new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);

/**
 * Invites an address into the creator's programme: a single-use link valid
 * PARTNER_INVITATION_TTL_DAYS, e-mailed in the caller's language. At most PARTNER_INVITATIONS_PER_DAY
 * in any 24 hours per creator, counted under the programme's row lock so parallel calls cannot pass it.
 */
export async function invite(
  deps: PartnerDeps,
  creator: { id: string; email: string },
  email: string,
  locale: Locale,
): Promise<PartnerInvitation> {
  if (email === creator.email.toLowerCase()) throw validation({ email: ["You cannot invite yourself."] });
  const created = await deps.db.transaction(async (tx) => {
    const programme = await q.lockProgramme(tx, { creatorId: creator.id });
    const now = new Date();
    const recent = await q.countInvitationsSince(tx, {
      creatorId: creator.id,
      since: new Date(now.getTime() - DAY_MS),
    });
    if (recent.count >= PARTNER_INVITATIONS_PER_DAY) {
      const freeAt = (recent.oldest?.getTime() ?? now.getTime()) + DAY_MS;
      const seconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
      throw new AppError(
        "RateLimitException",
        "You have sent as many invitations as a day allows. Please try again later.",
        { headers: { "retry-after": String(seconds) } },
      );
    }
    if (await q.isActivePartnerByEmail(tx, { creatorId: creator.id, email })) {
      throw new AppError("ConflictException", "This person is already a partner of your programme.");
    }
    await q.retirePendingInvitations(tx, { creatorId: creator.id, email, now });
    const token = randomToken();
    const row = await q.insertInvitation(tx, {
      creatorId: creator.id,
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + PARTNER_INVITATION_TTL_DAYS * DAY_MS),
    });
    const display = (await q.creatorDisplays(tx, { ownerIds: [creator.id] })).get(creator.id);
    const url = new URL(`/programmes/join/${token}`, deps.config.WEB_ORIGIN).toString();
    await queueMail(tx, {
      to: email,
      template: "partner-invitation",
      locale,
      params: {
        url,
        creator: display?.displayName ?? creator.email,
        rate: rateText(programme.defaultRateBps, locale),
        expiresInDays: PARTNER_INVITATION_TTL_DAYS,
      },
    });
    return row;
  });
  deps.pokeJobs();
  return {
    id: created.id,
    email: created.email,
    createdAt: created.createdAt.toISOString(),
    expiresAt: created.expiresAt.toISOString(),
  };
}

export async function pendingInvitations(db: Db, creatorId: string): Promise<PartnerInvitationList> {
  const rows = await q.pendingInvitations(db, {
    creatorId,
    now: new Date(),
    limit: PARTNER_INVITATIONS_SHOWN,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      email: row.email,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
  };
}

/** Cancels a pending invitation of mine: its link stops working; 404 when there is none such. */
export async function cancelInvitation(db: Db, creatorId: string, invitationId: string): Promise<void> {
  if (!(await q.cancelPendingInvitation(db, { creatorId, invitationId, now: new Date() }))) {
    throw new AppError("NotFoundException", "This invitation was not found, or is no longer pending.");
  }
}

// ---------------------------------------------------------------------------------------------
// The partner's side

const newCode = () => randomBytes((PARTNER_CODE_LENGTH * 3) / 4).toString("base64url");

/** A fresh code may (once in 2^48) be taken already: the whole attempt is run again with another. */
async function withFreshCode<T>(work: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(newCode());
    } catch (err) {
      if (attempt < 3 && isUniqueViolation(err, "partner_memberships_code_idx")) continue;
      throw err;
    }
  }
}

const toResult = (row: q.MembershipRow): MembershipResult => ({
  id: row.id,
  creatorId: row.creatorId,
  status: row.status,
  code: row.code,
});

/** Two joins of one partner at once: the second meets the first's row. */
const alreadyIn = (err: unknown) => isUniqueViolation(err, "partner_memberships_creator_partner_idx");

/**
 * Joins a creator's programme: at once when it is open, as an application when it takes partners
 * by approval. A refused or removed partner cannot come back by themselves (an invitation can).
 */
export async function join(db: Db, partnerId: string, creatorId: string): Promise<MembershipResult> {
  if (partnerId === creatorId) throw ownProgramme();
  try {
    return await withFreshCode((code) =>
      db.transaction(async (tx) => {
        const programme = await q.findLiveProgramme(tx, { creatorId });
        if (!programme?.enabled) throw notOpen();
        if (programme.joinMode === "invitation") {
          throw new AppError("ForbiddenException", "This programme takes partners by invitation only.");
        }
        const existing = await q.lockMembershipOf(tx, { creatorId, partnerId });
        if (existing?.status === "applied") {
          throw new AppError("ConflictException", "You have already applied to this programme.");
        }
        if (existing?.status === "active") {
          throw new AppError("ConflictException", "You are already a partner of this programme.");
        }
        if (existing) {
          throw new AppError(
            "ForbiddenException",
            "The creator has closed your place in this programme: only an invitation from them can reopen it.",
          );
        }
        const open = programme.joinMode === "open";
        const row = await q.insertMembership(tx, {
          creatorId,
          partnerId,
          status: open ? "active" : "applied",
          code,
          decidedAt: open ? new Date() : null,
        });
        return toResult(row);
      }),
    );
  } catch (err) {
    if (alreadyIn(err))
      throw new AppError("ConflictException", "You have already applied to this programme.");
    throw err;
  }
}

/**
 * Accepts an invitation: the caller becomes an active partner (a new membership, or their earlier
 * one re-activated, with its code). The token works once; unknown, used and expired tokens get the
 * same answer. Any signed-in account may use it: the link is the invitation, as an order's link is
 * the order.
 */
/** What an invitation offers, read before accepting it; the same 404 as a spent or unknown link. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const invitation = await q.pendingInvitationByHash(db, { tokenHash: hashToken(token), now: new Date() });
  if (!invitation) throw invalidInvitation();
  const programme = await q.findLiveProgramme(db, { creatorId: invitation.creatorId });
  if (!programme?.enabled) throw invalidInvitation();
  const displays = await q.creatorDisplays(db, { ownerIds: [invitation.creatorId] });
  return {
    creator: creatorOf(invitation.creatorId, displays),
    joinMode: programme.joinMode,
    defaultRateBps: programme.defaultRateBps,
    windowDays: programme.windowDays,
    description: programme.description,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

export async function acceptInvitation(db: Db, partnerId: string, token: string): Promise<MembershipResult> {
  try {
    return await withFreshCode((code) =>
      db.transaction(async (tx) => {
        const now = new Date();
        // Spent first, in one conditional update; anything refused below rolls it back.
        const invitation = await q.spendInvitation(tx, {
          tokenHash: hashToken(token),
          now,
          userId: partnerId,
        });
        if (!invitation) throw invalidInvitation();
        const { creatorId } = invitation;
        if (creatorId === partnerId) throw ownProgramme();
        const programme = await q.findLiveProgramme(tx, { creatorId });
        if (!programme?.enabled) throw notOpen();
        const existing = await q.lockMembershipOf(tx, { creatorId, partnerId });
        if (existing?.status === "active") return toResult(existing);
        if (existing) {
          const moved = await q.moveMembership(tx, {
            creatorId,
            id: existing.id,
            from: ["applied", "refused", "removed"],
            to: "active",
            at: now,
          });
          if (!moved) throw new Error("membership changed under its lock");
          return toResult(moved);
        }
        return toResult(
          await q.insertMembership(tx, { creatorId, partnerId, status: "active", code, decidedAt: now }),
        );
      }),
    );
  } catch (err) {
    // A join of the same programme committed in between: the invitation is still good for a retry.
    if (alreadyIn(err))
      throw new AppError("ConflictException", "You have already applied to this programme.");
    throw err;
  }
}

const creatorOf = (id: string, displays: Map<string, q.CreatorDisplay>): ProgrammeCreator => {
  const display = displays.get(id);
  return {
    id,
    displayName: display?.displayName ?? null,
    handle: display?.handle ?? null,
    profileId: display?.profileId ?? null,
  };
};

/** The programmes I belong to or applied to, and those open to me. */
export async function programmes(db: Db, partnerId: string): Promise<Programmes> {
  const [mine, open] = await Promise.all([
    q.myMemberships(db, { partnerId, limit: PARTNER_MEMBERSHIPS_SHOWN }),
    q.openProgrammes(db, { partnerId, limit: PARTNER_OPEN_PROGRAMMES_SHOWN }),
  ]);
  const displays = await q.creatorDisplays(db, {
    ownerIds: [...mine.map((m) => m.creatorId), ...open.map((p) => p.creatorId)],
  });
  const memberships = mine.map((row) => toMyMembership(row, displays));
  const openList: OpenProgramme[] = open.map((row) => ({
    creator: creatorOf(row.creatorId, displays),
    joinMode: row.joinMode,
    defaultRateBps: row.defaultRateBps,
    windowDays: row.windowDays,
    description: row.description,
  }));
  return { memberships, open: openList, claimable: await claimableOf(db, partnerId, "partner") };
}

type MembershipListRow = Awaited<ReturnType<typeof q.myMemberships>>[number];

function toMyMembership(row: MembershipListRow, displays: Map<string, q.CreatorDisplay>): MyMembership {
  return {
    id: row.id,
    creator: creatorOf(row.creatorId, displays),
    status: row.status,
    code: row.code,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    programmeEnabled: row.enabled ?? PARTNER_DEFAULT_ENABLED,
    defaultRateBps: row.defaultRateBps ?? PARTNER_DEFAULT_RATE_BPS,
    windowDays: row.windowDays ?? PARTNER_DEFAULT_WINDOW_DAYS,
  };
}

/** One of the partner's memberships as GET /programmes lists it; 404 when it is not theirs. */
export async function myMembership(db: Db, partnerId: string, membershipId: string): Promise<MyMembership> {
  const [row] = await q.myMemberships(db, { partnerId, membershipId, limit: 1 });
  if (!row) throw new AppError("NotFoundException", "This programme was not found.");
  return toMyMembership(row, await q.creatorDisplays(db, { ownerIds: [row.creatorId] }));
}

// ---------------------------------------------------------------------------------------------
// Public

/** The programme of a creator profile's owner, as anyone sees it; 404 when off or never saved. */
export async function publicProgramme(db: Db, profileIdOrHandle: string): Promise<PublicProgramme> {
  const row = await q.programmeOfProfile(db, profileKeyOf(profileIdOrHandle));
  if (!row?.enabled) throw new AppError("NotFoundException", "This programme was not found.");
  return {
    creatorId: row.creatorId,
    enabled: row.enabled,
    joinMode: row.joinMode,
    defaultRateBps: row.defaultRateBps,
    windowDays: row.windowDays,
    description: row.description,
    terms: row.terms,
  };
}
