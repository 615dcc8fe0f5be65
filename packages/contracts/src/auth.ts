import { z } from "zod";
import { payoutCountrySchema } from "./countries.ts";
import { localeSchema } from "./locale-schema.ts";
import { RETURN_PATH_MAX, sameOriginPath } from "./return-path.ts";
import { euVatCountries } from "./vat-countries.ts";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));
/** DESIGN section 3: 8 to 128 characters. */
export const passwordSchema = z.string().min(8).max(128);
/** The bot-check token every password route carries (spec section 3). */
export const turnstileTokenSchema = z.string().min(1).max(2048);
/** Single-use tokens sent by e-mail: 43 URL-safe characters (256 bits). */
export const emailedTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
/** A TOTP code (6 digits) or a recovery code (xxxx-xxxx-xxxx). */
export const twoFactorCodeSchema = z.string().trim().min(6).max(32);

/** POST /auth/signup?ref={token} */
export const signupBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  acceptTerms: z.literal(true),
  locale: localeSchema,
  turnstileToken: turnstileTokenSchema,
});
export type SignupBody = z.infer<typeof signupBodySchema>;
/** An affiliate token that is malformed is ignored like an unknown one: it never blocks a sign-up. */
export const signupQuerySchema = z.object({
  ref: z
    .string()
    .optional()
    .transform((ref) => (ref && /^[A-Za-z0-9_-]{4,64}$/.test(ref) ? ref : undefined)),
});

/** POST /auth/signin */
export const signinBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(128),
  code: twoFactorCodeSchema.optional(),
});
export type SigninBody = z.infer<typeof signinBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** POST /auth/email/resend and POST /auth/password/send */
export const emailRequestSchema = z.object({ email: emailSchema });
export type EmailRequest = z.infer<typeof emailRequestSchema>;

/** POST /auth/password/store */
export const passwordStoreBodySchema = z.object({
  token: emailedTokenSchema,
  password: passwordSchema,
  turnstileToken: turnstileTokenSchema,
});
export type PasswordStoreBody = z.infer<typeof passwordStoreBodySchema>;
export const passwordStoreResponseSchema = z.object({ success: z.boolean(), message: z.string() });

/** PATCH /auth/password */
export const passwordChangeBodySchema = z.object({
  oldPassword: z.string().min(1).max(128),
  newPassword: passwordSchema,
  turnstileToken: turnstileTokenSchema,
});
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

/**
 * The current password, for changes that could lock the owner out (2FA set-up, deletion request);
 * the API also accepts none within a few minutes of signing in. The body itself may be absent (null).
 */
export const reauthBodySchema = z.object({ password: z.string().min(1).max(128).optional() }).nullish();
export type ReauthBody = z.infer<typeof reauthBodySchema>;

/**
 * POST /auth/verify/email/{token}: no body for a link sent by a sign-up (it carries that sign-up's
 * password); a resent link belongs to no sign-up, so whoever follows it chooses the password here.
 */
export const verifyEmailBodySchema = z.object({ password: passwordSchema.optional() }).nullish();
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/**
 * A return path given by a client (`next`, a return URL): the rule of `sameOriginPath`, for any API
 * route that would take one. None does today: every return URL the API sends is built from WEB_ORIGIN.
 */
export const returnPathSchema = z
  .string()
  .max(RETURN_PATH_MAX)
  .refine((value) => sameOriginPath(value, "http://origin.invalid") !== null, {
    message: "Only a path on this site is allowed.",
  });

/** POST /auth/2fa/setup: a new secret to scan, pending until confirmed. */
export const twoFactorSetupResponseSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrSvg: z.string(),
});
/** POST /auth/2fa/enable */
export const twoFactorEnableBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
/** Recovery codes are shown once, when 2FA is turned on. */
export const twoFactorEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
/** POST /auth/2fa/disable */
export const twoFactorDisableBodySchema = z.object({
  password: z.string().min(1).max(128),
  code: twoFactorCodeSchema,
});

/** PATCH /profile/locale */
export const localeBodySchema = z.object({ locale: localeSchema });

const name = z.string().trim().min(1).max(100);
const addressSchema = z.object({
  line1: z.string().trim().min(1).max(200),
  line2: z.string().trim().max(200).optional(),
  city: z.string().trim().min(1).max(100),
  postalCode: z.string().trim().min(2).max(16),
  /** Where the creator can be paid (issue 23): the 30 countries, Switzerland, the UK and the US. */
  country: payoutCountrySchema,
});

/** POST /profile/onboarding: the two variants of spec section 2. */
export const onboardingBodySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("individual"),
    firstName: name,
    lastName: name,
    dateOfBirth: z.iso.date(),
    address: addressSchema,
  }),
  z
    .object({
      kind: z.literal("professional"),
      companyName: z.string().trim().min(1).max(200),
      registrationNumber: z.string().trim().min(2).max(40),
      /**
       * Required for a company in the EU; optional elsewhere (issue 23: an American or a Swiss
       * company may have none).
       */
      vatNumber: z
        .string()
        .trim()
        .regex(/^[A-Z]{2}[A-Z0-9]{2,13}$/)
        .optional(),
      address: addressSchema,
    })
    .superRefine((body, ctx) => {
      if (
        body.vatNumber === undefined &&
        (euVatCountries as readonly string[]).includes(body.address.country)
      )
        ctx.addIssue({
          code: "custom",
          path: ["vatNumber"],
          message: "A company in the EU gives its VAT number.",
        });
    }),
]);
export type OnboardingBody = z.infer<typeof onboardingBodySchema>;

/** GET /profile/onboarding */
export const onboardingResponseSchema = z.object({ onboarding: onboardingBodySchema.nullable() });
