import { z } from "zod";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));
/** DESIGN section 3: 8 to 128 characters. */
export const passwordSchema = z.string().min(8).max(128);

/** POST /auth/signin */
export const signinBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(128),
  code: z.string().trim().min(6).max(32).optional(),
});
export type SigninBody = z.infer<typeof signinBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
