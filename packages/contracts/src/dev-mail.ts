import { z } from "zod";
import { localeSchema } from "./locale-schema.ts";

/**
 * The dev mail page: the messages the sandbox (outbox) mail provider kept instead of sending.
 * Served only when MAIL_PROVIDER=outbox outside production.
 */

/** GET /dev/mail?to=&limit= */
export const devMailListQuerySchema = z.object({
  /** One recipient's messages (case-insensitive); everyone's when absent. */
  to: z.string().trim().min(1).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DevMailListQuery = z.infer<typeof devMailListQuerySchema>;

export const devMailSummarySchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  locale: localeSchema,
  createdAt: z.iso.datetime(),
  /** The http(s) links of the plain-text version, in order: what a developer or a test follows. */
  links: z.array(z.string()),
});
export type DevMailSummary = z.infer<typeof devMailSummarySchema>;

/** Newest first. */
export const devMailListSchema = z.object({ messages: z.array(devMailSummarySchema) });
export type DevMailList = z.infer<typeof devMailListSchema>;

/** GET /dev/mail/:id */
export const devMailParamsSchema = z.object({ id: z.uuid() });
export type DevMailParams = z.infer<typeof devMailParamsSchema>;

export const devMailMessageSchema = devMailSummarySchema.extend({
  text: z.string(),
  html: z.string(),
});
export type DevMailMessage = z.infer<typeof devMailMessageSchema>;
