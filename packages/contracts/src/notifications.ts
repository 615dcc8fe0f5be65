import { z } from "zod";

/*
 * A creator's sale notifications (issue 21): an e-mail per sale (sales made within a minute or so
 * of each other come together), one daily digest instead, or none.
 */

export const saleNotificationModes = ["each", "digest", "off"] as const;
export const saleNotificationModeSchema = z.enum(saleNotificationModes);
export type SaleNotificationMode = z.infer<typeof saleNotificationModeSchema>;
/** What an account gets until it chooses: an e-mail per sale. */
export const DEFAULT_SALE_NOTIFICATIONS: SaleNotificationMode = "each";

/** GET /profile/notifications, and the body of PUT /profile/notifications. */
export const notificationSettingsSchema = z.object({ saleNotifications: saleNotificationModeSchema });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsBodySchema = notificationSettingsSchema;
export type NotificationSettingsBody = z.infer<typeof notificationSettingsBodySchema>;

/** PUT /profile/notifications: the settings as saved, and a message to show. */
export const notificationSettingsSavedSchema = notificationSettingsSchema.extend({ message: z.string() });
export type NotificationSettingsSaved = z.infer<typeof notificationSettingsSavedSchema>;
