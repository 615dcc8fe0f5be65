import { z } from "zod";

/*
 * Identity verification ("verify account"; spec sections 3, 5 and 7): a Veriff-compatible provider
 * checks the person's document; its decision arrives by a signed webhook. Payouts need an approved
 * check.
 */

export const identityProviderKinds = ["sandbox", "veriff"] as const;
export const identityProviderKindSchema = z.enum(identityProviderKinds);
export type IdentityProviderKind = z.infer<typeof identityProviderKindSchema>;

/** A session's status, as the provider reports it (Veriff's names); `created` until the person acts. */
export const identitySessionStatuses = [
  "created",
  "started",
  "submitted",
  "approved",
  "declined",
  "resubmission_requested",
  "expired",
  "abandoned",
  "review",
] as const;
export const identitySessionStatusSchema = z.enum(identitySessionStatuses);
export type IdentitySessionStatus = z.infer<typeof identitySessionStatusSchema>;

/** The account's standing: `none` before any session, `approved` once any session was. */
export const identityStatusSchema = z.enum(["none", ...identitySessionStatuses]);
export type IdentityStatus = z.infer<typeof identityStatusSchema>;

export const VENDOR_DATA_MAX = 1000;

/**
 * The provider's session body (spec section 3): POSTed to its sessions endpoint with the client key
 * header.
 */
export const identitySessionRequestSchema = z.object({
  verification: z.object({
    callback: z.url(),
    person: z.object({
      firstName: z.string().min(1),
      lastName: z.string().min(1),
      idNumber: z.string().min(1).optional(),
    }),
    vendorData: z.string().max(VENDOR_DATA_MAX).optional(),
    timestamp: z.iso.datetime(),
  }),
});
export type IdentitySessionRequest = z.infer<typeof identitySessionRequestSchema>;

/**
 * POST /identity/sessions: the form of spec section 5. givenName and lastName are required unless the
 * account already supplies them (the form then hides them); vendorData at most 1000 characters.
 */
export const identityFormBodySchema = z.object({
  givenName: z.string().trim().max(100).optional(),
  lastName: z.string().trim().max(100).optional(),
  vendorData: z.string().max(VENDOR_DATA_MAX, "At most 1000 characters.").optional(),
});
export type IdentityFormBody = z.infer<typeof identityFormBodySchema>;

/** The same form with the names required when none are on file: the web form and the API both check it. */
export function identityFormSchema(namesOnFile: boolean) {
  if (namesOnFile) return identityFormBodySchema;
  return identityFormBodySchema.extend({
    givenName: z.string().trim().min(1, "Enter your given name.").max(100),
    lastName: z.string().trim().min(1, "Enter your last name.").max(100),
  });
}

export const identitySessionSchema = z.object({
  id: z.uuid(),
  status: identitySessionStatusSchema,
  /** Where the person goes to take the check (the provider's page, or the sandbox's). */
  url: z.url(),
  createdAt: z.iso.datetime(),
});
export type IdentitySession = z.infer<typeof identitySessionSchema>;

/** POST /identity/sessions answer: a new session (201) or the unfinished one, resumed (200). */
export const identitySessionStartSchema = identitySessionSchema.extend({ resumed: z.boolean() });

/** GET /identity: where the account stands and what it can do next. */
export const identityStateSchema = z.object({
  status: identityStatusSchema,
  /** Why the last check was declined or must be redone, in the provider's words. */
  reason: z.string().nullable(),
  /** The session to resume, when one is unfinished. */
  session: identitySessionSchema.nullable(),
  /** The account already supplies the names: the form hides them. */
  namesOnFile: z.boolean(),
  sessionsPerDay: z.number().int(),
  sessionsLeftToday: z.number().int(),
  /** When a new session becomes possible again, if the daily limit is reached. */
  nextSessionAt: z.iso.datetime().nullable(),
  provider: identityProviderKindSchema,
});
export type IdentityState = z.infer<typeof identityStateSchema>;

/** The sandbox's decisions, chosen on its page by the person being checked. */
export const sandboxIdentityOutcomes = ["approved", "declined", "resubmission_requested"] as const;
export const sandboxIdentityDecisionBodySchema = z.object({
  outcome: z.enum(sandboxIdentityOutcomes),
  reason: z.string().trim().max(200).optional(),
});
export type SandboxIdentityDecisionBody = z.infer<typeof sandboxIdentityDecisionBodySchema>;

/** GET /identity/sandbox/sessions/:id: what the sandbox page shows. */
export const sandboxIdentitySessionSchema = z.object({
  id: z.uuid(),
  status: identitySessionStatusSchema,
  firstName: z.string(),
  lastName: z.string(),
  createdAt: z.iso.datetime(),
});
export type SandboxIdentitySession = z.infer<typeof sandboxIdentitySessionSchema>;
