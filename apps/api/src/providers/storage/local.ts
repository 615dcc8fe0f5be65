import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertKeyForPurpose, assertValidKey, SIGNED_URL_PURPOSES, type SignedUrlPurpose } from "./keys.ts";
import {
  type ObjectHead,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutOptions,
  type SignedUrlOptions,
} from "./types.ts";

export interface LocalDiskOptions {
  /** UPLOADS_DIR; resolved against the working directory. */
  root: string;
  /** API_PUBLIC_URL: signed URLs point at the API's `GET /files/*`. */
  apiPublicUrl: string;
  /** Per-purpose keys are derived from it, so APP_SECRET can be passed as is. */
  signingSecret: string;
  /** For tests; the clock signed URLs expire by. */
  now?: () => number;
}

interface StoredMeta {
  contentType: string;
}

/**
 * Files on this machine's disk: the zero-setup default. Layout under the root:
 * `objects/<key>` (the bytes), `meta/<key>.json` (content type), `tmp/` (writes in progress, on the
 * same file system so the final rename is atomic: a reader never sees half a file).
 */
export class LocalDiskStorage implements ObjectStorage {
  readonly kind = "local" as const;
  private readonly root: string;
  private readonly apiPublicUrl: string;
  private readonly signingSecret: string;
  private readonly now: () => number;

  constructor(options: LocalDiskOptions) {
    this.root = path.resolve(options.root);
    this.apiPublicUrl = options.apiPublicUrl.replace(/\/+$/, "");
    this.signingSecret = options.signingSecret;
    this.now = options.now ?? Date.now;
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    const target = this.objectPath(key);
    const metaTarget = this.metaPath(key);
    const tmpDir = path.join(this.root, "tmp");
    await Promise.all([
      mkdir(tmpDir, { recursive: true }),
      mkdir(path.dirname(target), { recursive: true }),
      mkdir(path.dirname(metaTarget), { recursive: true }),
    ]);
    const tmpObject = path.join(tmpDir, `${randomUUID()}.part`);
    const tmpMeta = path.join(tmpDir, `${randomUUID()}.json`);
    try {
      let written = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          callback(null, chunk);
        },
      });
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, counter, createWriteStream(tmpObject, { flags: "wx" }));
      // A body shorter or longer than announced is a broken upload, not a file to keep.
      if (options.contentLength !== undefined && written !== options.contentLength) {
        throw new Error(`Expected ${options.contentLength} bytes for ${key}, received ${written}`);
      }
      const meta: StoredMeta = { contentType: options.contentType };
      await writeFileExclusive(tmpMeta, JSON.stringify(meta));
      // Metadata first: once the object appears, its content type is already in place.
      await rename(tmpMeta, metaTarget);
      await rename(tmpObject, target);
    } finally {
      await Promise.all([rm(tmpObject, { force: true }), rm(tmpMeta, { force: true })]);
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.objectPath(key);
    try {
      const handle = await open(file, "r");
      return handle.createReadStream();
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async head(key: string): Promise<ObjectHead | null> {
    const file = this.objectPath(key);
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      size = info.size;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return { size, contentType: await this.readContentType(key) };
  }

  async delete(key: string): Promise<void> {
    // The object first: once it is gone, the key reads as absent whatever happens to the metadata.
    await rm(this.objectPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertKeyForPurpose(key, options.purpose);
    const expires = Math.floor(this.now() / 1000) + Math.max(1, Math.floor(options.expiresInSeconds));
    const sig = localSignature(this.signingSecret, options.purpose, key, expires, options.downloadName);
    const query = new URLSearchParams({ purpose: options.purpose, expires: String(expires), sig });
    if (options.downloadName !== undefined) query.set("name", options.downloadName);
    return `${this.apiPublicUrl}/files/${key}?${query.toString()}`;
  }

  /** The absolute path of a key's bytes; exported for the `GET /files/*` route's streaming. */
  objectPath(key: string): string {
    assertValidKey(key);
    return this.inside(path.join("objects", key));
  }

  private metaPath(key: string): string {
    assertValidKey(key);
    return this.inside(path.join("meta", `${key}.json`));
  }

  private inside(relative: string): string {
    const [first] = relative.split(path.sep);
    const base = path.join(this.root, first ?? "");
    const full = path.resolve(this.root, relative);
    // Belt and braces behind assertValidKey: whatever the key, the path stays under its tree.
    if (!full.startsWith(`${base}${path.sep}`)) throw new Error("Object path escapes the storage root");
    return full;
  }

  private async readContentType(key: string): Promise<string> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.metaPath(key), "utf8"));
      if (
        parsed &&
        typeof parsed === "object" &&
        "contentType" in parsed &&
        typeof parsed.contentType === "string"
      )
        return parsed.contentType;
    } catch (error) {
      if (!isNotFound(error) && !(error instanceof SyntaxError)) throw error;
    }
    return "application/octet-stream";
  }
}

async function writeFileExclusive(file: string, content: string): Promise<void> {
  const handle = await open(file, "wx");
  try {
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof Error &&
    "code" in error &&
    (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "EISDIR")
  );
}

function signingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "salelink", "local-storage-urls", 32));
}

/**
 * Newline-separated: no purpose or allowed key character is a newline, so no two inputs sign the
 * same text. The purpose comes first: a signature names what it grants, not just which bytes.
 */
function localSignature(
  secret: string,
  purpose: SignedUrlPurpose,
  key: string,
  expires: number,
  downloadName: string | undefined,
): string {
  return createHmac("sha256", signingKey(secret))
    .update(`${purpose}\n${key}\n${expires}\n${downloadName ?? ""}`)
    .digest("base64url");
}

const isPurpose = (value: unknown): value is SignedUrlPurpose =>
  SIGNED_URL_PURPOSES.some((purpose) => purpose === value);

export interface LocalSignatureParams {
  key: string;
  /** The `purpose` query parameter, as received. */
  purpose: string | undefined;
  /** The `expires` query parameter, as received. */
  expires: string | number | undefined;
  /** The `sig` query parameter, as received. */
  sig: string | undefined;
  /** The `name` query parameter, as received. */
  downloadName?: string;
  /** The signingSecret the storage was built with. */
  secret: string;
  now?: number;
}

/**
 * Whether a `/files/<key>?expires=…&sig=…[&name=…]` request was signed by this server and has not
 * expired. Compared in constant time so the signature cannot be guessed byte by byte.
 */
export function verifyLocalSignature(params: LocalSignatureParams): boolean {
  const { key, sig, purpose } = params;
  if (typeof sig !== "string" || sig.length === 0) return false;
  if (!isPurpose(purpose)) return false;
  const expiresText = String(params.expires ?? "");
  if (!/^\d{1,12}$/.test(expiresText)) return false;
  const expires = Number(expiresText);
  if (expires < Math.floor((params.now ?? Date.now()) / 1000)) return false;
  try {
    assertKeyForPurpose(key, purpose);
  } catch {
    return false;
  }
  const expected = Buffer.from(localSignature(params.secret, purpose, key, expires, params.downloadName));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
