import { z } from "zod";

/*
 * The admin console (issue 8): every action an operator takes carries a reason and is written to an
 * append-only audit log. Shapes of the console's own routes are added here by each module.
 */

/** Why an admin did something: required by every admin action that changes data. */
export const adminReasonSchema = z.string().trim().min(3).max(500);
export const adminReasonBodySchema = z.object({ reason: adminReasonSchema });
export type AdminReasonBody = z.infer<typeof adminReasonBodySchema>;

export const auditActions = [
  "account.suspend",
  "account.reinstate",
  "account.role",
  "order.refund",
  "payout.approve",
  "payout.paid",
  "payout.fail",
  "report.dismiss",
  "report.takedown",
  "maintenance.on",
  "maintenance.off",
  "maintenance.message",
  "payouts.export",
  "customers.export",
  "vat.export",
  /** Issue 32: an operator gave up on a user's debt. */
  "debt.write_off",
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** GET /admin/audit?cursor=&limit=&action=&actorId=&targetId= */
export const auditQuerySchema = z.object({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  action: auditActionSchema.optional(),
  actorId: z.uuid().optional(),
  targetId: z.string().max(100).optional(),
});
export const auditEntrySchema = z.object({
  id: z.uuid(),
  actor: z.object({ id: z.uuid(), email: z.string() }),
  action: auditActionSchema,
  targetType: z.string(),
  targetId: z.string(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.object({
  items: z.array(auditEntrySchema),
  nextCursor: z.uuid().nullable(),
});
