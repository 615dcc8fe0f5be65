/**
 * What an upload really is, read from its first bytes: a name or a browser's Content-Type is the
 * client's word and can say anything (DESIGN section 5).
 */

export type FileKind = "image" | "video" | "audio" | "pdf" | "archive" | "other";

export interface FileType {
  mime: string;
  /** Usual extensions, the first one preferred; empty for unknown content. */
  extensions: readonly string[];
  kind: FileKind;
}

/** Enough of the head of a file for every signature below (WebM's DocType sits in its first header). */
export const SNIFF_BYTES = 4100;

const t = (mime: string, kind: FileKind, ...extensions: string[]): FileType => ({ mime, kind, extensions });

export const FILE_TYPES = {
  png: t("image/png", "image", "png"),
  jpeg: t("image/jpeg", "image", "jpg", "jpeg"),
  gif: t("image/gif", "image", "gif"),
  webp: t("image/webp", "image", "webp"),
  mp4: t("video/mp4", "video", "mp4", "m4v"),
  quicktime: t("video/quicktime", "video", "mov"),
  webm: t("video/webm", "video", "webm"),
  matroska: t("video/x-matroska", "video", "mkv"),
  oggVideo: t("video/ogg", "video", "ogv"),
  mp3: t("audio/mpeg", "audio", "mp3"),
  aac: t("audio/aac", "audio", "aac"),
  wav: t("audio/wav", "audio", "wav"),
  ogg: t("audio/ogg", "audio", "ogg", "oga", "opus"),
  m4a: t("audio/mp4", "audio", "m4a"),
  flac: t("audio/flac", "audio", "flac"),
  pdf: t("application/pdf", "pdf", "pdf"),
  zip: t("application/zip", "archive", "zip"),
  gzip: t("application/gzip", "archive", "gz"),
  sevenZip: t("application/x-7z-compressed", "archive", "7z"),
  rar: t("application/vnd.rar", "archive", "rar"),
  unknown: t("application/octet-stream", "other"),
} as const satisfies Record<string, FileType>;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

function hasAscii(bytes: Uint8Array, text: string, offset = 0): boolean {
  return startsWith(bytes, ascii(text), offset);
}

/** Whether `text` occurs within the first `limit` bytes. */
function containsAscii(bytes: Uint8Array, text: string, limit: number): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, limit)).includes(
    text,
    0,
    "latin1",
  );
}

/** ISO base media (MP4, MOV, M4A): the major brand names the flavour. */
function isoMediaType(bytes: Uint8Array): FileType | null {
  if (!hasAscii(bytes, "ftyp", 4)) {
    // QuickTime files older than the ftyp box open straight on one of these atoms.
    return ["moov", "mdat", "wide", "free", "skip", "pnot"].some((atom) => hasAscii(bytes, atom, 4)) &&
      bytes.length >= 8
      ? FILE_TYPES.quicktime
      : null;
  }
  if (bytes.length < 12) return null;
  const brand = Buffer.from(bytes.subarray(8, 12)).toString("latin1");
  if (brand === "qt  ") return FILE_TYPES.quicktime;
  if (["M4A ", "M4B ", "M4P "].includes(brand)) return FILE_TYPES.m4a;
  return FILE_TYPES.mp4;
}

function mpegAudioType(bytes: Uint8Array): FileType | null {
  if (hasAscii(bytes, "ID3")) return FILE_TYPES.mp3;
  const [b0, b1] = [bytes[0], bytes[1]];
  if (b0 !== 0xff || b1 === undefined || (b1 & 0xe0) !== 0xe0) return null;
  // Frame sync, then the layer bits: 00 is AAC's ADTS framing, 01 is MPEG layer III.
  const layer = (b1 >> 1) & 0x03;
  if (layer === 0 && (b1 & 0xf0) === 0xf0) return FILE_TYPES.aac;
  if (layer === 1) return FILE_TYPES.mp3;
  return null;
}

/** The real type of a file from its first bytes (see SNIFF_BYTES); never from its name. */
export function detectFileType(bytes: Uint8Array): FileType {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FILE_TYPES.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return FILE_TYPES.jpeg;
  if (hasAscii(bytes, "GIF87a") || hasAscii(bytes, "GIF89a")) return FILE_TYPES.gif;
  if (hasAscii(bytes, "RIFF") && hasAscii(bytes, "WEBP", 8)) return FILE_TYPES.webp;
  if (hasAscii(bytes, "RIFF") && hasAscii(bytes, "WAVE", 8)) return FILE_TYPES.wav;
  // Readers accept "%PDF-" a little later too; only the start counts here, so a file that opens as
  // something else cannot also pass as a PDF.
  if (hasAscii(bytes, "%PDF-")) return FILE_TYPES.pdf;
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    return containsAscii(bytes, "webm", 64) ? FILE_TYPES.webm : FILE_TYPES.matroska;
  }
  if (hasAscii(bytes, "OggS")) {
    return containsAscii(bytes, "theora", 128) ? FILE_TYPES.oggVideo : FILE_TYPES.ogg;
  }
  if (hasAscii(bytes, "fLaC")) return FILE_TYPES.flac;
  const iso = isoMediaType(bytes);
  if (iso) return iso;
  if (
    startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(bytes, [0x50, 0x4b, 0x07, 0x08])
  )
    return FILE_TYPES.zip;
  if (startsWith(bytes, [0x1f, 0x8b, 0x08])) return FILE_TYPES.gzip;
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return FILE_TYPES.sevenZip;
  if (
    startsWith(bytes, [...ascii("Rar!"), 0x1a, 0x07, 0x00]) ||
    startsWith(bytes, [...ascii("Rar!"), 0x1a, 0x07, 0x01, 0x00])
  )
    return FILE_TYPES.rar;
  const audio = mpegAudioType(bytes);
  if (audio) return audio;
  return FILE_TYPES.unknown;
}

export interface UploadRules {
  /**
   * What may be uploaded: kinds ("image"), MIME types ("application/pdf"), wildcards ("video/*")
   * or extensions (".zip", matched against the detected type, not the name). Unset: anything.
   */
  accept?: readonly string[];
  maxBytes?: number;
  minBytes?: number;
}

export interface UploadInput {
  /** At least the first SNIFF_BYTES of the file (or all of it when shorter). */
  bytes: Uint8Array;
  /** The client's file name: kept for messages and downloads, never used to decide the type. */
  declaredName?: string;
  /** The whole file's size in bytes. */
  size: number;
}

export type UploadRejection = "invalid-type" | "too-large" | "too-small";

export type UploadCheck =
  | { ok: true; type: FileType }
  | { ok: false; reason: UploadRejection; type: FileType };

const KINDS: ReadonlySet<string> = new Set<FileKind>(["image", "video", "audio", "pdf", "archive", "other"]);

export function acceptsType(type: FileType, accept: readonly string[]): boolean {
  return accept.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (KINDS.has(entry)) return type.kind === entry;
    if (entry.startsWith(".")) return type.extensions.includes(entry.slice(1));
    if (entry === "*/*" || entry === "*") return true;
    if (entry.endsWith("/*")) return type.mime.startsWith(entry.slice(0, -1));
    return type.mime === entry;
  });
}

/**
 * Checks an upload against the rules of its use. Defaults (spec section 5): no type restriction
 * and no size limit; the type is still detected so callers store the real one.
 */
export function checkUpload(input: UploadInput, rules: UploadRules = {}): UploadCheck {
  const type = detectFileType(input.bytes);
  if (rules.accept && rules.accept.length > 0 && !acceptsType(type, rules.accept))
    return { ok: false, reason: "invalid-type", type };
  if (rules.maxBytes !== undefined && input.size > rules.maxBytes)
    return { ok: false, reason: "too-large", type };
  if (rules.minBytes !== undefined && input.size < rules.minBytes)
    return { ok: false, reason: "too-small", type };
  return { ok: true, type };
}
