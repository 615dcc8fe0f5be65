import { z } from "zod";
import {
  PARTNER_CODE_LENGTH,
  PARTNER_VIA_MAX,
  PARTNER_WINDOW_MAX_DAYS,
  partnerCodePattern,
} from "./shell-constants.ts";

export { PARTNER_CODE_LENGTH, PARTNER_VIA_MAX, PARTNER_WINDOW_MAX_DAYS };

import { moneyByCurrency } from "./affiliates.ts";
import { emailedTokenSchema, emailSchema } from "./auth.ts";
import { currencySchema } from "./business-rules.ts";
import {
  PARTNER_CHART_DEFAULT_DAYS,
  PARTNER_CHART_MAX_DAYS,
  partnerDaySchema,
  partnerStatsSchema,
} from "./partner-sales.ts";

/*
 * Creator partner programmes (issue 20): a creator's own affiliate programme, beside the platform's
 * (affiliates.ts). Partners join it (openly, by approval, or by an e-mailed invitation) and promote
 * the creator's links with their code in `?via=`. Rates are integer basis points (1000 = 10%) of
 * what the buyer paid; the commission itself is recorded on each attributed sale, with the rate of
 * that moment, so changing a rate never changes a sale already made.
 */

// ---------------------------------------------------------------------------------------------
// Rules: the defaults of a programme never saved, and the limits every request is checked against.

/** A commission rate: 1% to 90% of what the buyer paid. */
export const PARTNER_RATE_MIN_BPS = 100;
export const PARTNER_RATE_MAX_BPS = 9000;
/** The rate of a programme never saved: 10%. */
export const PARTNER_DEFAULT_RATE_BPS = 1000;
/** Attribution window: how long after a partner's click a sale is theirs (last click wins). */
export const PARTNER_WINDOW_MIN_DAYS = 1;
export const PARTNER_DEFAULT_WINDOW_DAYS = 30;
export const partnerJoinModes = ["open", "approval", "invitation"] as const;
export const partnerJoinModeSchema = z.enum(partnerJoinModes);
export type PartnerJoinMode = z.infer<typeof partnerJoinModeSchema>;
export const PARTNER_DEFAULT_JOIN_MODE: PartnerJoinMode = "approval";
/** A programme is off until its creator turns it on. */
export const PARTNER_DEFAULT_ENABLED = false;
export const PARTNER_DESCRIPTION_MAX = 500;
export const PARTNER_TERMS_MAX = 5000;
/** Per-link rates a programme may set. */
export const PARTNER_LINK_RATES_MAX = 100;
/** How long an invitation's link works. */
export const PARTNER_INVITATION_TTL_DAYS = 7;
/** Invitations one creator may send in 24 hours (429 past it): the programme is not a mailing tool. */
export const PARTNER_INVITATIONS_PER_DAY = 50;
/** Bounds of the lists: a page of the creator's partners, the partner's programmes, pending invitations. */
export const PARTNER_LIST_DEFAULT_LIMIT = 50;
export const PARTNER_LIST_MAX_LIMIT = 100;
export const PARTNER_MEMBERSHIPS_SHOWN = 100;
export const PARTNER_OPEN_PROGRAMMES_SHOWN = 50;
export const PARTNER_INVITATIONS_SHOWN = 100;

export const partnerRateBpsSchema = z.number().int().min(PARTNER_RATE_MIN_BPS).max(PARTNER_RATE_MAX_BPS);
export const partnerCodeSchema = z.string().regex(partnerCodePattern);

// ---------------------------------------------------------------------------------------------
// The creator's programme

export const partnerLinkRateSchema = z.object({ linkId: z.uuid(), rateBps: partnerRateBpsSchema });
export type PartnerLinkRate = z.infer<typeof partnerLinkRateSchema>;

/** PUT /partner-programme: the whole settings, replaced. */
export const partnerProgrammeBodySchema = z.object({
  enabled: z.boolean(),
  defaultRateBps: partnerRateBpsSchema,
  windowDays: z.number().int().min(PARTNER_WINDOW_MIN_DAYS).max(PARTNER_WINDOW_MAX_DAYS),
  joinMode: partnerJoinModeSchema,
  /** Plain text, shown to partners as written (never rendered as markup). */
  description: z.string().trim().max(PARTNER_DESCRIPTION_MAX).default(""),
  terms: z.string().trim().max(PARTNER_TERMS_MAX).default(""),
  linkRates: z
    .array(partnerLinkRateSchema)
    .max(PARTNER_LINK_RATES_MAX)
    .default([])
    .refine(
      (rates) => new Set(rates.map((r) => r.linkId)).size === rates.length,
      "Each link can have one partner rate only.",
    ),
});
export type PartnerProgrammeBody = z.infer<typeof partnerProgrammeBodySchema>;
/** What a client may send (description, terms and linkRates may be left out). */
export type PartnerProgrammeInput = z.input<typeof partnerProgrammeBodySchema>;

/** GET and PUT /partner-programme: the settings, the defaults when never saved (`updatedAt` null). */
export const partnerProgrammeSchema = z.object({
  enabled: z.boolean(),
  defaultRateBps: z.number().int(),
  windowDays: z.number().int(),
  joinMode: partnerJoinModeSchema,
  description: z.string(),
  terms: z.string(),
  /** Sorted by link id. */
  linkRates: z.array(partnerLinkRateSchema),
  updatedAt: z.iso.datetime().nullable(),
});
export type PartnerProgramme = z.infer<typeof partnerProgrammeSchema>;

export const partnerMembershipStatuses = ["applied", "active", "refused", "removed"] as const;
export const partnerMembershipStatusSchema = z.enum(partnerMembershipStatuses);
export type PartnerMembershipStatus = z.infer<typeof partnerMembershipStatusSchema>;

/** How the creator's partners screen sorts (money: the sum of its currencies' minor units). */
export const partnerSortKeys = ["createdAt", "clicks", "sales", "revenue", "held", "owed", "paid"] as const;
export const partnerSortKeySchema = z.enum(partnerSortKeys);
export type PartnerSortKey = z.infer<typeof partnerSortKeySchema>;

/** GET /partner-programme/partners?status=&sort=&dir=&offset=&limit= : newest first by default. */
export const partnerListQuerySchema = z.object({
  status: partnerMembershipStatusSchema.optional(),
  sort: partnerSortKeySchema.default("createdAt"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(PARTNER_LIST_MAX_LIMIT).default(PARTNER_LIST_DEFAULT_LIMIT),
});
export type PartnerListQuery = z.infer<typeof partnerListQuerySchema>;

export const partnerSchema = z.object({
  /** The membership's id (the path of approve, refuse and remove). */
  id: z.uuid(),
  partnerId: z.uuid(),
  email: z.string(),
  status: partnerMembershipStatusSchema,
  code: z.string(),
  createdAt: z.iso.datetime(),
  /** When the application was approved or refused (or the open join made). */
  decidedAt: z.iso.datetime().nullable(),
  removedAt: z.iso.datetime().nullable(),
  stats: partnerStatsSchema,
});
export type Partner = z.infer<typeof partnerSchema>;
export const partnerListSchema = z.object({
  items: z.array(partnerSchema),
  total: z.number().int(),
  /** The offset of the next page; null on the last. */
  nextOffset: z.number().int().nullable(),
});
export type PartnerList = z.infer<typeof partnerListSchema>;

/** /partner-programme/partners/{membershipId}… */
export const partnerMembershipParamsSchema = z.object({ membershipId: z.uuid() });

/** POST /partner-programme/invitations */
export const partnerInvitationBodySchema = z.object({ email: emailSchema });
export type PartnerInvitationBody = z.infer<typeof partnerInvitationBodySchema>;

/** A pending invitation: never its token (only the e-mail carries it). */
export const partnerInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type PartnerInvitation = z.infer<typeof partnerInvitationSchema>;
/** DELETE /partner-programme/invitations/{invitationId}: a pending invitation stops working. */
export const partnerInvitationParamsSchema = z.object({ invitationId: z.uuid() });

/** GET /partner-programme/invitations: pending ones, newest first, at most PARTNER_INVITATIONS_SHOWN. */
export const partnerInvitationListSchema = z.object({ items: z.array(partnerInvitationSchema) });
export type PartnerInvitationList = z.infer<typeof partnerInvitationListSchema>;

// ---------------------------------------------------------------------------------------------
// The partner's side

/** The creator of a programme as partners see it: their oldest public profile, when they have one. */
export const programmeCreatorSchema = z.object({
  /** The creator's account id: the path of POST /programmes/{creatorId}/join. */
  id: z.uuid(),
  displayName: z.string().nullable(),
  handle: z.string().nullable(),
  profileId: z.uuid().nullable(),
});
export type ProgrammeCreator = z.infer<typeof programmeCreatorSchema>;

export const programmeTermsSchema = z.object({
  joinMode: partnerJoinModeSchema,
  defaultRateBps: z.number().int(),
  windowDays: z.number().int(),
  description: z.string(),
});

/** One of my memberships, with my code. */
export const myMembershipSchema = z.object({
  id: z.uuid(),
  creator: programmeCreatorSchema,
  status: partnerMembershipStatusSchema,
  code: z.string(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  /** Whether the creator's programme is on now (a membership stays when it is turned off). */
  programmeEnabled: z.boolean(),
  defaultRateBps: z.number().int(),
  windowDays: z.number().int(),
});
export type MyMembership = z.infer<typeof myMembershipSchema>;

export const openProgrammeSchema = programmeTermsSchema.extend({ creator: programmeCreatorSchema });
export type OpenProgramme = z.infer<typeof openProgrammeSchema>;

/**
 * GET /programmes: the programmes I belong to or applied to (newest first, at most
 * PARTNER_MEMBERSHIPS_SHOWN), and enabled ones open to join (open or by approval) I am not in
 * (newest first, at most PARTNER_OPEN_PROGRAMMES_SHOWN).
 */
export const programmesSchema = z.object({
  memberships: z.array(myMembershipSchema),
  open: z.array(openProgrammeSchema),
  /** My partner commissions past their hold, not claimed yet (what POST /programmes/claim moves). */
  claimable: moneyByCurrency,
});
export type Programmes = z.infer<typeof programmesSchema>;

/** POST /programmes/{creatorId}/join */
export const programmeParamsSchema = z.object({ creatorId: z.uuid() });
/** POST /programmes/invitations/{token}/accept */
export const programmeInvitationParamsSchema = z.object({ token: emailedTokenSchema });

/**
 * GET /programmes/invitations/{token}: what an invitation offers, before accepting it (anyone holding
 * the link may read it: the link is the capability). 404 when it is spent, expired or unknown, or
 * the programme is off.
 */
export const invitationPreviewSchema = programmeTermsSchema.extend({
  creator: programmeCreatorSchema,
  expiresAt: z.iso.datetime(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** What joining or accepting answers: the membership, `active` with a code, or `applied`. */
export const membershipResultSchema = z.object({
  id: z.uuid(),
  creatorId: z.uuid(),
  status: partnerMembershipStatusSchema,
  code: z.string(),
});
export type MembershipResult = z.infer<typeof membershipResultSchema>;

/** GET /programmes/memberships/{membershipId}?days= : one of my programmes, as its partner. */
export const membershipStatsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(PARTNER_CHART_MAX_DAYS).default(PARTNER_CHART_DEFAULT_DAYS),
});
export const membershipParamsSchema = z.object({ membershipId: z.uuid() });

/** The links a partner's page lists, at most. */
export const PARTNER_LINKS_SHOWN = 100;

/** A link of the creator a partner can share, with the rate it earns now. */
export const programmeLinkSchema = z.object({
  token: z.string(),
  title: z.string(),
  priceMinor: z.number().int(),
  currency: currencySchema,
  rateBps: z.number().int(),
});
export type ProgrammeLink = z.infer<typeof programmeLinkSchema>;

export const membershipStatsSchema = z.object({
  membership: myMembershipSchema,
  stats: partnerStatsSchema,
  /** Oldest first, every day of the period (zeros included). */
  days: z.array(partnerDaySchema),
  /** The creator's links on sale (active, public), newest first, at most PARTNER_LINKS_SHOWN. */
  links: z.array(programmeLinkSchema),
});
export type MembershipStats = z.infer<typeof membershipStatsSchema>;

// ---------------------------------------------------------------------------------------------
// Public

/** GET /public/programmes/{profileIdOrHandle}: the programme of that profile's owner, when on. */
export const publicProgrammeParamsSchema = z.object({ profileIdOrHandle: z.string().min(1).max(64) });
export const publicProgrammeSchema = programmeTermsSchema.extend({
  /** The owner's account id, to join with. */
  creatorId: z.uuid(),
  enabled: z.boolean(),
  terms: z.string(),
});
export type PublicProgramme = z.infer<typeof publicProgrammeSchema>;

// ---------------------------------------------------------------------------------------------
// Attribution

/** A partner code the visitor followed, and when (milliseconds since the epoch, the browser's clock). */
export const partnerViaSchema = z.object({ code: partnerCodeSchema, at: z.number().int().nonnegative() });
export type PartnerVia = z.infer<typeof partnerViaSchema>;
export const partnerViaListSchema = z.array(partnerViaSchema).max(PARTNER_VIA_MAX);

/** PATCH /programmes/clicks/{code}: a visit through a partner link (204 whether counted or not). */
export const partnerClickParamsSchema = z.object({ code: partnerCodeSchema });
