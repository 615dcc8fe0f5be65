import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Multipart } from "@fastify/multipart";
import { type UploadedFile, type UploadUse, uploadRules } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { AppError, validation } from "../../lib/errors.ts";
import { checkUpload, type FileKind, SNIFF_BYTES, type UploadRules } from "../../lib/file-types.ts";
import { coverImage, ImageRejectedError, imagePreview } from "../../lib/images.ts";
import { KEY_SPACES, newObjectKey, type ObjectStorage } from "../../providers/storage/index.ts";
import { queueUnattachedCleanup } from "./cleanup.ts";
import { type FileRow, insertFile } from "./queries.ts";
import { claimRoom, quotaExceeded } from "./quota.ts";

const MiB = 1024 * 1024;

/** The shared per-use limits (contracts), in the shape the byte checker takes. */
export const UPLOAD_RULES: Readonly<
  Record<UploadUse, Required<Pick<UploadRules, "maxBytes" | "minBytes">> & UploadRules>
> = {
  content: { maxBytes: uploadRules.content.maxBytes, minBytes: uploadRules.content.minBytes },
  avatar: { ...uploadRules.avatar, accept: uploadRules.avatar.accept },
  cover: { ...uploadRules.cover, accept: uploadRules.cover.accept },
};

/**
 * Images up to this size get a blurred preview and a cover; larger ones (only possible as paid
 * content) are shown as a generic card rather than decoded in memory.
 */
export const PREVIEW_SOURCE_MAX_BYTES = 50 * MiB;

/** Longest original name kept, in characters. */
export const ORIGINAL_NAME_MAX = 200;

export interface UploadDeps {
  db: Db;
  storage: ObjectStorage;
}

/** The client's name, kept for downloads only: no path, no control characters, at most 200 characters. */
export function sanitizeFileName(name: string | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .trim()
    .replace(/^\.+/, "");
  return Array.from(cleaned).slice(0, ORIGINAL_NAME_MAX).join("").trim() || "file";
}

const tooLarge = () =>
  new AppError("PayloadTooLargeException", "The request is too large.", {
    errors: { file: ["File is too large"] },
  });
const maxFiles = () => validation({ file: ["Max files"] });

class LimitExceeded extends Error {}

interface Received {
  tmpPath: string;
  head: Buffer;
  size: number;
  declaredName: string | undefined;
}

/** Streams one file part to a temp file, keeping its head for sniffing; stops past `maxBytes`. */
async function receiveToTemp(
  part: Readable,
  maxBytes: number,
  declaredName: string | undefined,
): Promise<Received> {
  const tmpPath = path.join(os.tmpdir(), `salelink-upload-${randomUUID()}.part`);
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new LimitExceeded());
        return;
      }
      if (headLength < SNIFF_BYTES) {
        const piece = chunk.subarray(0, SNIFF_BYTES - headLength);
        headChunks.push(piece);
        headLength += piece.length;
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(part, counter, createWriteStream(tmpPath, { flags: "wx" }));
  } catch (error) {
    await rm(tmpPath, { force: true });
    if (error instanceof LimitExceeded || isFileTooLarge(error)) throw tooLarge();
    throw error;
  }
  return { tmpPath, head: Buffer.concat(headChunks), size, declaredName };
}

function isFileTooLarge(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "FST_REQ_FILE_TOO_LARGE";
}

/** busboy's refusals of a body that is not multipart as announced: plain errors, without a code. */
function isMalformedMultipart(error: unknown): boolean {
  return (
    error instanceof Error &&
    !("code" in error) &&
    /^(Multipart: |Unexpected end of |Malformed )/.test(error.message)
  );
}

function isFilesLimit(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "FST_FILES_LIMIT";
}

/**
 * Reads the multipart parts: exactly one file is expected (any other file part is a 'Max files'
 * refusal). The temp file is removed on every path but success, where the caller owns it.
 */
export async function receiveUpload(
  parts: AsyncIterable<Multipart>,
  use: UploadUse,
  /** What the account's storage quota leaves (quota.ts): past it, 413 'Maximum total size exceeded'. */
  roomBytes = Number.POSITIVE_INFINITY,
): Promise<Received> {
  const rules = UPLOAD_RULES[use];
  const maxBytes = Math.min(rules.maxBytes, roomBytes);
  const overQuota = maxBytes < rules.maxBytes;
  let received: Received | undefined;
  let extraFile = false;
  try {
    for await (const part of parts) {
      if (part.type !== "file") continue;
      if (received || part.fieldname !== "file") {
        extraFile = true;
        part.file.resume();
        continue;
      }
      received = await receiveToTemp(part.file, maxBytes, part.filename);
    }
  } catch (error) {
    if (received) await rm(received.tmpPath, { force: true });
    const tooBig =
      isFileTooLarge(error) || (error instanceof AppError && error.exception === "PayloadTooLargeException");
    if (overQuota && tooBig) throw quotaExceeded();
    if (isFilesLimit(error)) throw maxFiles();
    if (isFileTooLarge(error)) throw tooLarge();
    if (isMalformedMultipart(error)) throw new AppError("BadRequestException", "The request is malformed.");
    throw error;
  }
  if (extraFile) {
    if (received) await rm(received.tmpPath, { force: true });
    throw maxFiles();
  }
  if (!received) throw validation({ file: ["A file is required."] });
  return received;
}

function toPublic(row: FileRow): UploadedFile {
  return {
    id: row.id,
    kind: row.kind as FileKind,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    originalName: row.originalName,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Checks a received file against its use, stores it with its preview and cover (images), and
 * records it. Always removes the temp file; removes stored objects again when a later step fails.
 */
export async function storeUpload(
  deps: UploadDeps,
  ownerId: string,
  use: UploadUse,
  received: Received,
  /** An account's upload (not demo data): its storage quota and unattached cleanup apply. */
  limits?: { config: Config },
): Promise<UploadedFile> {
  const stored: string[] = [];
  try {
    const check = checkUpload(
      { bytes: received.head, size: received.size, declaredName: received.declaredName },
      UPLOAD_RULES[use],
    );
    if (!check.ok) {
      if (check.reason === "invalid-type") throw validation({ file: ["File is of invalid type"] });
      if (check.reason === "too-large") throw validation({ file: ["File is too large"] });
      throw validation({ file: ["File is too small"] });
    }
    const { type } = check;

    let preview: Buffer | undefined;
    let cover: Buffer | undefined;
    if (type.kind === "image" && received.size <= PREVIEW_SOURCE_MAX_BYTES) {
      const source = await readFile(received.tmpPath);
      try {
        // Paid content gets a blurred preview only: a sharp cover of it would give it away.
        // Avatars and covers are public by purpose and get their resized rendition.
        if (use === "content") preview = (await imagePreview(source, { mode: "blur" })).data;
        else cover = (await coverImage(source)).data;
      } catch (error) {
        if (!(error instanceof ImageRejectedError)) throw error;
        if (error.reason === "too-many-pixels") throw validation({ file: ["File is too large"] });
        throw validation({ file: ["File is of invalid type"] });
      }
    }

    // A random name of its own for each object, in separate key spaces: the public name of a
    // preview or cover (and the file id) says nothing about where the paid original is.
    const storageKey = newObjectKey(KEY_SPACES.original);
    const previewKey = preview ? newObjectKey(KEY_SPACES.preview) : null;
    const coverKey = cover ? newObjectKey(KEY_SPACES.cover) : null;

    stored.push(storageKey);
    await deps.storage.put(storageKey, createReadStream(received.tmpPath), {
      contentType: type.mime,
      contentLength: received.size,
    });
    if (preview && previewKey) {
      stored.push(previewKey);
      await deps.storage.put(previewKey, preview, {
        contentType: "image/webp",
        contentLength: preview.length,
      });
    }
    if (cover && coverKey) {
      stored.push(coverKey);
      await deps.storage.put(coverKey, cover, { contentType: "image/webp", contentLength: cover.length });
    }

    const record = (db: DbOrTx) =>
      insertFile(db, {
        ownerId,
        storageKey,
        contentType: type.mime,
        kind: type.kind,
        sizeBytes: received.size,
        originalName: sanitizeFileName(received.declaredName),
        previewKey,
        coverKey,
      });
    // An account's upload: its quota checked again with its row locked (two uploads at once cannot
    // both take the last room), and its removal queued in case nothing ever uses it (cleanup.ts).
    const row = limits
      ? await deps.db.transaction(async (tx) => {
          await claimRoom(tx, limits.config, ownerId, received.size);
          const inserted = await record(tx);
          await queueUnattachedCleanup(tx, limits.config, inserted.id);
          return inserted;
        })
      : await record(deps.db);
    stored.length = 0;
    return toPublic(row);
  } finally {
    await rm(received.tmpPath, { force: true });
    await Promise.all(stored.map((key) => deps.storage.delete(key).catch(() => undefined)));
  }
}

/** Stores bytes held in memory (demo data, scripts) through the same checks as an upload. */
export async function storeBuffer(
  deps: UploadDeps,
  ownerId: string,
  use: UploadUse,
  name: string,
  data: Buffer,
): Promise<UploadedFile> {
  const tmpPath = path.join(os.tmpdir(), `salelink-upload-${randomUUID()}.part`);
  await writeFile(tmpPath, data, { flag: "wx" });
  return storeUpload(deps, ownerId, use, {
    tmpPath,
    head: data.subarray(0, SNIFF_BYTES),
    size: data.length,
    declaredName: name,
  });
}
