import { and, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.ts";
import { partnerLinkRates, partnerMemberships, partnerProgrammes, users } from "../../../db/schema/index.ts";

/*
 * The reads of a sale's attribution (checkout): which of the codes a visitor followed belong to the
 * creator's programme now, and at which rate.
 */

const creators = alias(users, "creators");

/**
 * The active memberships of the creator's enabled programme among `codes`, with what attributing a
 * sale needs: the programme's window and default rate, and both accounts' e-mails for the
 * self-dealing checks. A suspended or deleted partner brings nothing.
 */
export async function activeMembershipsByCodes(db: DbOrTx, params: { creatorId: string; codes: string[] }) {
  // Awaited here: a drizzle query is a thenable that runs again on each `then`, and callers keep
  // the promise (the attributions' memory).
  return await db
    .select({
      membershipId: partnerMemberships.id,
      partnerId: partnerMemberships.partnerId,
      code: partnerMemberships.code,
      partnerEmail: users.email,
      creatorEmail: creators.email,
      windowDays: partnerProgrammes.windowDays,
      defaultRateBps: partnerProgrammes.defaultRateBps,
    })
    .from(partnerMemberships)
    .innerJoin(partnerProgrammes, eq(partnerProgrammes.creatorId, partnerMemberships.creatorId))
    .innerJoin(users, eq(users.id, partnerMemberships.partnerId))
    .innerJoin(creators, eq(creators.id, partnerMemberships.creatorId))
    .where(
      and(
        eq(partnerMemberships.creatorId, params.creatorId),
        inArray(partnerMemberships.code, params.codes),
        eq(partnerMemberships.status, "active"),
        eq(partnerProgrammes.enabled, true),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    );
}

/** The creator's rate for this link, when it has one of its own. */
export async function linkRateOf(
  db: DbOrTx,
  params: { creatorId: string; linkId: string },
): Promise<number | null> {
  const [row] = await db
    .select({ rateBps: partnerLinkRates.rateBps })
    .from(partnerLinkRates)
    .where(and(eq(partnerLinkRates.creatorId, params.creatorId), eq(partnerLinkRates.linkId, params.linkId)))
    .limit(1);
  return row?.rateBps ?? null;
}

/** The membership id of an active code, for the click counter (null: unknown, removed, not active). */
export async function activeMembershipIdByCode(
  db: DbOrTx,
  params: { token: string },
): Promise<string | null> {
  const [row] = await db
    .select({ id: partnerMemberships.id })
    .from(partnerMemberships)
    .innerJoin(partnerProgrammes, eq(partnerProgrammes.creatorId, partnerMemberships.creatorId))
    .where(
      and(
        eq(partnerMemberships.code, params.token),
        eq(partnerMemberships.status, "active"),
        eq(partnerProgrammes.enabled, true),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}
