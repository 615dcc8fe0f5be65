import { z } from "zod";
import { adminReasonSchema } from "./admin.ts";
import { localeSchema } from "./locale-schema.ts";

/** Optional message per language shown on /maintenance. */
export const maintenanceMessageSchema = z.partialRecord(localeSchema, z.string().trim().max(500));

/** GET /maintenance: polled by every visitor, sent with credentials. */
export const maintenanceStatusSchema = z.object({
  maintenance: z.boolean(),
  /** Milliseconds a client waits before asking again (spec section 9: at most 60000). */
  cooldown: z.number().int().positive().optional(),
  /** ISO time of the last switch; null when it was never switched. */
  lastUpdated: z.iso.datetime().nullable(),
  message: maintenanceMessageSchema.nullable(),
});
export type MaintenanceStatus = z.infer<typeof maintenanceStatusSchema>;

/** PUT /admin/maintenance (admin only). */
export const setMaintenanceBodySchema = z.object({
  maintenance: z.boolean(),
  message: maintenanceMessageSchema.optional(),
  /** Recorded in the audit log; a fixed text ("Maintenance switched on", …) when left out. */
  reason: adminReasonSchema.optional(),
});
export type SetMaintenanceBody = z.infer<typeof setMaintenanceBodySchema>;

export { isMaintenanceExempt } from "./maintenance-exempt.ts";
export { maintenanceRecheckMs } from "./shell-constants.ts";
