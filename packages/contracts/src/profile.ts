import { z } from "zod";
import { localeSchema } from "./locale-schema.ts";

export const roles = ["user", "admin"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** The signed-in account. */
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

/**
 * GET /profile: the signed-in account, or null when the request has no valid session. Asking "who is
 * signed in?" is not an error when nobody is (decision 021); the account's own routes answer 401.
 */
export const sessionProfileSchema = profileSchema.nullable();
