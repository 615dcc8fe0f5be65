import { z } from "zod";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

/**
 * The mail variables of the environment. Parsed on its own, beside config.ts's schema (like the
 * business rules): a refined zod object cannot be merged into another with `.extend()`.
 */
export const mailEnvSchema = z
  .object({
    /** "outbox" (default) keeps every message in the database for the dev mail page; "smtp" sends. */
    MAIL_PROVIDER: z.enum(["outbox", "smtp"]).default("outbox"),
    SMTP_HOST: z.string().min(1).optional(),
    SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(587),
    /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
    SMTP_SECURE: bool(false),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    /** The From header: a display name and an address. */
    MAIL_FROM: z
      .string()
      .min(1)
      .default("Salelink <no-reply@salelink.test>")
      .refine((v) => fromDomain(v) !== null, "must be an e-mail address, optionally as Name <address>"),
  })
  .superRefine((env, ctx) => {
    if (env.MAIL_PROVIDER === "smtp" && !env.SMTP_HOST)
      ctx.addIssue({ code: "custom", path: ["SMTP_HOST"], message: "required when MAIL_PROVIDER is smtp" });
    // One without the other is a typo, not a choice: fail at start-up rather than at the first e-mail.
    if (env.SMTP_USER && !env.SMTP_PASSWORD)
      ctx.addIssue({ code: "custom", path: ["SMTP_PASSWORD"], message: "required when SMTP_USER is set" });
    if (env.SMTP_PASSWORD && !env.SMTP_USER)
      ctx.addIssue({ code: "custom", path: ["SMTP_USER"], message: "required when SMTP_PASSWORD is set" });
  });

export type MailEnv = z.output<typeof mailEnvSchema>;

/** The domain of a From value ("Name <a@b.example>" or "a@b.example"), or null when it has none. */
export function fromDomain(from: string): string | null {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const match = /^[^\s@<>]+@([^\s@<>]+\.[^\s@<>]+)$/.exec(address.trim());
  return match?.[1] ?? null;
}
