import { z } from "zod";

/*
 * Uploads (spec section 5): `POST /upload?use=…` with one multipart file field `file`. The type is
 * read from the bytes on the server; the limits depend on what the file is for.
 */

export const uploadUses = ["content", "avatar", "cover"] as const;
export const uploadUseSchema = z.enum(uploadUses);
export type UploadUse = z.infer<typeof uploadUseSchema>;

export const uploadQuerySchema = z.object({ use: uploadUseSchema.default("content") });

export const fileKinds = ["image", "video", "audio", "pdf", "archive", "other"] as const;
export const fileKindSchema = z.enum(fileKinds);
export type FileKind = z.infer<typeof fileKindSchema>;

const MiB = 1024 * 1024;

/**
 * Limits per use, enforced by the API from the bytes and by the web before sending. The spec's
 * defaults are no type restriction and no size limit; each use sets its own: paid content may be
 * anything up to 500 MiB, avatars and covers are images small enough to resize on the fly. An empty
 * file is refused everywhere: it can be neither sold nor shown. One file per upload request.
 */
export const uploadRules = {
  content: { accept: null, maxBytes: 500 * MiB, minBytes: 1, maxFiles: 1 },
  avatar: { accept: ["image"], maxBytes: 5 * MiB, minBytes: 1, maxFiles: 1 },
  cover: { accept: ["image"], maxBytes: 10 * MiB, minBytes: 1, maxFiles: 1 },
} as const satisfies Record<
  UploadUse,
  { accept: readonly FileKind[] | null; maxBytes: number; minBytes: number; maxFiles: number }
>;

/** What the owner learns about a stored file: never where the paid original is kept. */
export const uploadedFileSchema = z.object({
  id: z.uuid(),
  kind: fileKindSchema,
  contentType: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  originalName: z.string(),
  createdAt: z.iso.datetime(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** The spec's rejection texts, shown by the client in the caller's language. */
export const uploadRejectionTexts = {
  invalidType: "File is of invalid type",
  tooLarge: "File is too large",
  tooSmall: "File is too small",
  maxFiles: "Max files",
  maxTotalSize: "Maximum total size exceeded",
} as const;

/**
 * GET /profile/storage: the caller's storage, what the quota allows and what is left of the hour's
 * uploads. Uploads attached to nothing are counted until their cleanup removes them.
 */
export const uploadUsageSchema = z.object({
  usedBytes: z.number().int().nonnegative(),
  quotaBytes: z.number().int().positive(),
  uploadsPerHour: z.number().int().positive(),
  /** How long an upload attached to no link or profile is kept, in hours. */
  unattachedTtlHours: z.number().positive(),
});
export type UploadUsage = z.infer<typeof uploadUsageSchema>;
