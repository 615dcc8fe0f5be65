import { z } from "zod";
import { localeSchema } from "./locale-schema.ts";

export const roles = ["user", "admin"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** GET /profile: the signed-in account (401 when there is none). */
export const profileSchema = z.object({
  id: z.uuid(),
  email: z.email(),
  role: roleSchema,
  locale: localeSchema,
  emailVerified: z.boolean(),
  onboardingCompleted: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;
