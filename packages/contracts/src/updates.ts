import { z } from "zod";
import { localeSchema } from "./locale-schema.ts";

/*
 * Updates to buyers (issue 21): a creator writes to the buyers of one link or of all their links.
 * The job queue sends it in batches; every e-mail carries a one-click unsubscribe link (per creator)
 * that works without signing in (decision 038).
 */

export const UPDATE_SUBJECT_MAX = 150;
/** Plain text; http(s) addresses in it become links in the e-mail. */
export const UPDATE_BODY_MAX = 10_000;
/** The creator's updates GET /updates lists, newest first. */
export const UPDATES_SHOWN = 50;

/** Being sent batch after batch, or done (every recipient sent, failed or skipped). */
export const updateStatuses = ["sending", "sent"] as const;
export const updateStatusSchema = z.enum(updateStatuses);

/** POST /updates: to the buyers of `linkId`, or of every link of mine when null. */
export const updateComposeBodySchema = z.object({
  subject: z.string().trim().min(1).max(UPDATE_SUBJECT_MAX),
  body: z.string().trim().min(1).max(UPDATE_BODY_MAX),
  linkId: z.uuid().nullable(),
  /** The language the update is written in: the e-mail's frame (greeting, footer) follows it. */
  locale: localeSchema,
});
export type UpdateComposeBody = z.infer<typeof updateComposeBodySchema>;

export const updateParamsSchema = z.object({ id: z.uuid() });

/** GET /updates/audience: who an update would reach, before writing it. */
export const updateAudienceQuerySchema = z.object({ linkId: z.uuid().optional() });
export const updateAudienceSchema = z.object({
  /** The buyers it goes to (those who unsubscribed included: they are counted, not e-mailed). */
  recipients: z.number().int(),
  unsubscribed: z.number().int(),
});
export type UpdateAudience = z.infer<typeof updateAudienceSchema>;

export const updateViewSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  body: z.string(),
  linkId: z.uuid().nullable(),
  /** The link's title when it went to one link's buyers. */
  linkTitle: z.string().nullable(),
  locale: localeSchema,
  status: updateStatusSchema,
  /** The buyers it goes to, counted when it was written. */
  recipients: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Not e-mailed: they had unsubscribed from this creator's updates. */
  unsubscribed: z.number().int(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});
export type UpdateView = z.infer<typeof updateViewSchema>;

export const updateListSchema = z.object({
  items: z.array(updateViewSchema),
  /** How many more updates today allows (UPDATES_PER_DAY over a rolling day). */
  remainingToday: z.number().int(),
});
export type UpdateList = z.infer<typeof updateListSchema>;

/** The unsubscribe link's token: the customer's id and its signature (the link is the proof). */
export const unsubscribeTokenSchema = z
  .string()
  .max(100)
  .regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
export const unsubscribeParamsSchema = z.object({ token: unsubscribeTokenSchema });

/** GET /updates/unsubscribe/{token} describes; only the POST unsubscribes. */
export const unsubscribeViewSchema = z.object({
  /** The creator's public name (their profile's), or null when they have none. */
  creator: z.string().nullable(),
  unsubscribed: z.boolean(),
});
export type UnsubscribeView = z.infer<typeof unsubscribeViewSchema>;
