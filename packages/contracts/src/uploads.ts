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
} as const;
