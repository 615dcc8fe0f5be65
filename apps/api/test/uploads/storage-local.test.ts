import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createObjectStorage,
  InvalidObjectKeyError,
  LocalDiskStorage,
  newObjectKey,
  ObjectNotFoundError,
  storageEnvSchema,
  verifyLocalSignature,
} from "../../src/providers/storage/index.ts";

const SECRET = "test-signing-secret-of-at-least-32-chars";
const API = "https://api.salelink.test";

let root: string;
let storage: LocalDiskStorage;

beforeEach(async () => {
  // A parent holding the root, so a file escaping the root would still land where the test looks.
  const parent = await mkdtemp(path.join(tmpdir(), "salelink-storage-"));
  root = path.join(parent, "uploads");
  storage = new LocalDiskStorage({ root, apiPublicUrl: `${API}/`, signingSecret: SECRET });
});

afterEach(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("the local disk storage", () => {
  it("stores, describes, reads and deletes an object", async () => {
    const key = newObjectKey("uploads");
    expect(key).toMatch(/^uploads\/[0-9a-f-]{36}$/);
    await storage.put(key, Buffer.from("hello, world"), { contentType: "text/plain" });

    expect(await storage.head(key)).toEqual({ size: 12, contentType: "text/plain" });
    expect(await text(await storage.get(key))).toBe("hello, world");
    expect(await readFile(storage.objectPath(key), "utf8")).toBe("hello, world");

    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    // Deleting again is fine: a retried clean-up must not fail.
    await storage.delete(key);
    expect(await filesUnder(path.join(root, "objects"))).toEqual([]);
  });

  it("streams a body in and overwrites an existing key", async () => {
    const key = "previews/a1";
    const chunks = Array.from({ length: 100 }, (_, i) => Buffer.from(`chunk ${i};`));
    const size = chunks.reduce((n, c) => n + c.length, 0);
    await storage.put(key, Readable.from(chunks), {
      contentType: "application/octet-stream",
      contentLength: size,
    });
    expect(await storage.head(key)).toEqual({ size, contentType: "application/octet-stream" });

    await storage.put(key, Buffer.from("second"), { contentType: "image/webp" });
    expect(await storage.head(key)).toEqual({ size: 6, contentType: "image/webp" });
    expect(await text(await storage.get(key))).toBe("second");
  });

  it("writes atomically: nothing is visible under the key until the whole body is in", async () => {
    const key = "uploads/atomic";
    const body = new PassThrough();
    const writing = storage.put(key, body, { contentType: "text/plain" });
    body.write("first half, ");
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Mid-write: the key reads as absent and the partial bytes live in tmp/ only.
    expect(await storage.head(key)).toBeNull();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await filesUnder(path.join(root, "objects"))).toEqual([]);
    const partial = await filesUnder(path.join(root, "tmp"));
    expect(partial).toHaveLength(1);

    body.end("second half");
    await writing;
    expect(await text(await storage.get(key))).toBe("first half, second half");
    expect(await filesUnder(path.join(root, "tmp"))).toEqual([]);
  });

  it("keeps the previous version when a rewrite fails midway, and leaves no temporary file", async () => {
    const key = "uploads/kept";
    await storage.put(key, Buffer.from("original"), { contentType: "text/plain" });
    const failing = new Readable({
      read() {
        this.push("partial");
        this.destroy(new Error("client went away"));
      },
    });
    await expect(storage.put(key, failing, { contentType: "image/png" })).rejects.toThrow("client went away");
    expect(await text(await storage.get(key))).toBe("original");
    expect(await storage.head(key)).toEqual({ size: 8, contentType: "text/plain" });
    expect(await filesUnder(path.join(root, "tmp"))).toEqual([]);
  });

  it("refuses a body whose length differs from the announced one", async () => {
    await expect(
      storage.put("uploads/short", Buffer.from("12345"), { contentType: "text/plain", contentLength: 6 }),
    ).rejects.toThrow(/Expected 6 bytes/);
    expect(await storage.head("uploads/short")).toBeNull();
    expect(await filesUnder(root)).toEqual([]);
  });

  it.each([
    "../outside",
    "uploads/../../outside",
    "uploads/..",
    "/etc/passwd",
    "uploads//double",
    "uploads/./dot",
    "uploads/",
    "uploads\\..\\outside",
    "%2e%2e/outside",
    "uploads/with space",
    "uploads/nul\0byte",
    "uploads/é",
    "",
    `uploads/${"a".repeat(1100)}`,
  ])("refuses the key %j for every operation", async (key) => {
    await expect(storage.put(key, Buffer.from("x"), { contentType: "text/plain" })).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(storage.head(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(
      storage.signedUrl(key, { purpose: "original-view", expiresInSeconds: 60 }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    // Nothing was written anywhere, inside the root or next to it.
    expect(await filesUnder(path.dirname(root))).toEqual([]);
  });

  it("cannot read a file outside the root through a crafted key", async () => {
    await writeFile(path.join(path.dirname(root), "secret.txt"), "top secret");
    await expect(storage.get("../secret.txt")).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(storage.get("objects/../../secret.txt")).rejects.toBeInstanceOf(InvalidObjectKeyError);
  });
});

describe("local signed URLs", () => {
  const now = Date.UTC(2030, 0, 1);
  const signer = () =>
    new LocalDiskStorage({ root: "unused", apiPublicUrl: API, signingSecret: SECRET, now: () => now });
  const original = "originals/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3c";

  function parse(url: string) {
    const parsed = new URL(url);
    return {
      parsed,
      key: decodeURIComponent(parsed.pathname.replace(/^\/files\//, "")),
      purpose: parsed.searchParams.get("purpose") ?? undefined,
      expires: parsed.searchParams.get("expires") ?? undefined,
      sig: parsed.searchParams.get("sig") ?? undefined,
      name: parsed.searchParams.get("name") ?? undefined,
    };
  }

  it("points at the API's /files route and verifies until it expires", async () => {
    const url = await signer().signedUrl(original, { purpose: "original-view", expiresInSeconds: 300 });
    const { parsed, key, purpose, expires, sig, name } = parse(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${API}/files/${original}`);
    expect(purpose).toBe("original-view");
    expect(expires).toBe(String(now / 1000 + 300));
    expect(name).toBeUndefined();

    const check = (at: number) =>
      verifyLocalSignature({ key, purpose, expires, sig, secret: SECRET, now: at });
    expect(check(now)).toBe(true);
    expect(check(now + 300_000)).toBe(true);
    expect(check(now + 301_000)).toBe(false);
  });

  it("binds the purpose, the download name, the key, the expiry and the secret", async () => {
    const url = await signer().signedUrl(original, {
      purpose: "original-download",
      expiresInSeconds: 300,
      downloadName: "Mon fichier é.pdf",
    });
    const { key, purpose, expires, sig, name } = parse(url);
    expect(name).toBe("Mon fichier é.pdf");
    const base = { key, purpose, expires, sig, downloadName: name, secret: SECRET, now };
    expect(verifyLocalSignature(base)).toBe(true);

    expect(verifyLocalSignature({ ...base, purpose: "original-view" })).toBe(false);
    expect(verifyLocalSignature({ ...base, purpose: undefined })).toBe(false);
    expect(verifyLocalSignature({ ...base, purpose: "anything" })).toBe(false);
    expect(verifyLocalSignature({ ...base, downloadName: "other.pdf" })).toBe(false);
    expect(verifyLocalSignature({ ...base, downloadName: undefined })).toBe(false);
    expect(verifyLocalSignature({ ...base, key: "originals/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3d" })).toBe(
      false,
    );
    expect(verifyLocalSignature({ ...base, expires: String(Number(expires) + 3600) })).toBe(false);
    expect(verifyLocalSignature({ ...base, secret: `${SECRET}x` })).toBe(false);
    const flipped = `${sig?.slice(0, -1)}${sig?.endsWith("A") ? "B" : "A"}`;
    expect(verifyLocalSignature({ ...base, sig: flipped })).toBe(false);
    expect(verifyLocalSignature({ ...base, sig: `${sig}A` })).toBe(false);
    expect(verifyLocalSignature({ ...base, sig: undefined })).toBe(false);
    expect(verifyLocalSignature({ ...base, sig: "" })).toBe(false);
    expect(verifyLocalSignature({ ...base, expires: undefined })).toBe(false);
    expect(verifyLocalSignature({ ...base, expires: `${expires}.5` })).toBe(false);
    expect(verifyLocalSignature({ ...base, key: `../${original}` })).toBe(false);
  });

  it("signs a key only for the purpose of its key space", async () => {
    const preview = "previews/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3c";
    await expect(
      signer().signedUrl(preview, { purpose: "original-download", expiresInSeconds: 60 }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(
      signer().signedUrl(original, { purpose: "preview", expiresInSeconds: 60 }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(
      signer().signedUrl("orders/f1", { purpose: "original-view", expiresInSeconds: 60 }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    // A genuine preview signature, pointed at an original (or relabelled), opens nothing.
    const { key, purpose, expires, sig } = parse(
      await signer().signedUrl(preview, { purpose: "preview", expiresInSeconds: 60 }),
    );
    const base = { key, purpose, expires, sig, secret: SECRET, now };
    expect(verifyLocalSignature(base)).toBe(true);
    expect(verifyLocalSignature({ ...base, key: original })).toBe(false);
    expect(verifyLocalSignature({ ...base, key: original, purpose: "original-view" })).toBe(false);
    expect(verifyLocalSignature({ ...base, purpose: "original-view" })).toBe(false);
  });

  it("comes from the factory with the API's address", async () => {
    const env = storageEnvSchema.parse({ UPLOADS_DIR: root });
    const fromFactory = createObjectStorage(env, { apiPublicUrl: API, signingSecret: SECRET });
    expect(fromFactory.kind).toBe("local");
    const { key, purpose, expires, sig } = parse(
      await fromFactory.signedUrl(original, { purpose: "original-view", expiresInSeconds: 60 }),
    );
    expect(verifyLocalSignature({ key, purpose, expires, sig, secret: SECRET })).toBe(true);
  });
});

describe("storageEnvSchema", () => {
  it("defaults to the local disk under ./data/uploads", () => {
    expect(storageEnvSchema.parse({})).toEqual({
      STORAGE_PROVIDER: "local",
      UPLOADS_DIR: "./data/uploads",
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: true,
    });
  });

  it("requires a bucket and both keys for s3, naming each missing variable", () => {
    const result = storageEnvSchema.safeParse({ STORAGE_PROVIDER: "s3", S3_ACCESS_KEY_ID: "AKID" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["S3_BUCKET", "S3_SECRET_ACCESS_KEY"]);
  });

  it("parses a complete s3 configuration", () => {
    const env = storageEnvSchema.parse({
      STORAGE_PROVIDER: "s3",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_BUCKET: "uploads",
      S3_ACCESS_KEY_ID: "AKID",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "false",
    });
    expect(env).toMatchObject({ S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: false });
    expect(createObjectStorage(env, { apiPublicUrl: API, signingSecret: SECRET }).kind).toBe("s3");
    expect(storageEnvSchema.safeParse({ S3_ENDPOINT: "not a url" }).success).toBe(false);
  });
});
