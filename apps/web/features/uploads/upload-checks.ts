import { type FileKind, type UploadUse, uploadRejectionTexts, uploadRules } from "@salelink/contracts";

/*
 * The checks the browser runs before sending a file, with the API's limits (contracts `uploadRules`)
 * and the same order: type, then too large, then too small. The API re-checks everything from the
 * bytes; these only spare the creator a pointless upload.
 */

export type Rejection = keyof typeof uploadRejectionTexts;
/** The shape of one use's limits (`uploadRules[use]`), with room for other values. */
export interface Rules {
  accept: readonly FileKind[] | null;
  maxBytes: number;
  minBytes: number;
  maxFiles: number;
}
/** The shared limits of one use (contracts), as the API applies them. */
export const rulesFor = (use: UploadUse): Rules => uploadRules[use];

/** How many leading bytes `sniffKind` needs. */
export const SNIFF_LENGTH = 16;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const hasAscii = (bytes: Uint8Array, text: string, offset = 0) => startsWith(bytes, ascii(text), offset);

/**
 * The kind of a file from its first bytes, for the signatures the API recognises as images, PDFs
 * and archives; audio and video fall back on the browser's type (only images are ever restricted).
 */
export function sniffKind(bytes: Uint8Array, declaredType = ""): FileKind {
  if (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    startsWith(bytes, [0xff, 0xd8, 0xff]) ||
    hasAscii(bytes, "GIF87a") ||
    hasAscii(bytes, "GIF89a") ||
    (hasAscii(bytes, "RIFF") && hasAscii(bytes, "WEBP", 8))
  )
    return "image";
  if (hasAscii(bytes, "%PDF-")) return "pdf";
  if (
    startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(bytes, [0x1f, 0x8b, 0x08]) ||
    startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) ||
    hasAscii(bytes, "Rar!")
  )
    return "archive";
  if (declaredType.startsWith("video/")) return "video";
  if (declaredType.startsWith("audio/")) return "audio";
  return "other";
}

export interface Candidate {
  size: number;
  kind: FileKind;
}

export type CheckResult =
  | { ok: true }
  /** The whole selection is refused ("maxFiles", "maxTotalSize"). */
  | { ok: false; scope: "selection"; reason: "maxFiles" | "maxTotalSize" }
  /** One file is refused: `index` in the selection. */
  | { ok: false; scope: "file"; index: number; reason: "invalidType" | "tooLarge" | "tooSmall" };

/** Checks a selection of files against the rules of one use. */
export function checkSelection(files: readonly Candidate[], rules: Rules): CheckResult {
  if (files.length > rules.maxFiles) return { ok: false, scope: "selection", reason: "maxFiles" };
  for (const [index, file] of files.entries()) {
    if (rules.accept && !rules.accept.includes(file.kind))
      return { ok: false, scope: "file", index, reason: "invalidType" };
    if (file.size > rules.maxBytes) return { ok: false, scope: "file", index, reason: "tooLarge" };
    if (file.size < rules.minBytes) return { ok: false, scope: "file", index, reason: "tooSmall" };
  }
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > 1 && total > rules.maxBytes)
    return { ok: false, scope: "selection", reason: "maxTotalSize" };
  return { ok: true };
}

/**
 * Which spec rejection an API field error is, whether it came in English or already translated
 * (the API answers in the page's language): `translated` gives this page's text of a rejection.
 */
export function serverRejection(
  message: string | undefined,
  status: number,
  translated: (reason: Rejection) => string,
): Rejection | null {
  // The field's message first: a 413 is also the storage quota ('Maximum total size exceeded').
  for (const reason of Object.keys(uploadRejectionTexts) as Rejection[]) {
    if (message && (message === uploadRejectionTexts[reason] || message === translated(reason)))
      return reason;
  }
  if (status === 413) return "tooLarge";
  return null;
}
