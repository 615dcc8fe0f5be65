import { z } from "zod";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

/**
 * The storage variables of the environment, parsed on its own beside config.ts's schema: a refined
 * zod object cannot be merged into another with `.extend()`.
 */
export const storageEnvSchema = z
  .object({
    /** "local" (default) keeps files on this machine's disk; "s3" any S3-compatible service. */
    STORAGE_PROVIDER: z.enum(["local", "s3"]).default("local"),
    UPLOADS_DIR: z.string().min(1).default("./data/uploads"),
    /** Unset for AWS itself; MinIO, R2 and others need their address. */
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_BUCKET: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Bucket in the path rather than the host name: what MinIO and most self-hosted services expect. */
    S3_FORCE_PATH_STYLE: bool(true),
  })
  .superRefine((env, ctx) => {
    if (env.STORAGE_PROVIDER !== "s3") return;
    // Checked at start-up so a missing value fails the deploy, not the first upload.
    for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!env[name])
        ctx.addIssue({ code: "custom", path: [name], message: "required when STORAGE_PROVIDER is s3" });
    }
  });

export type StorageEnv = z.output<typeof storageEnvSchema>;
