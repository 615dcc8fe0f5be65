import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createObjectStorage,
  InvalidObjectKeyError,
  ObjectNotFoundError,
  type ObjectStorage,
  S3ObjectStorage,
  storageEnvSchema,
} from "../../src/providers/storage/index.ts";

const BUCKET = "salelink-test";
const ACCESS_KEY = "AKIAFAKES3TEST";
const SECRET_KEY = "fake-secret-access-key";

interface StoredObject {
  body: Buffer;
  contentType: string;
}

interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

/**
 * Just enough of S3 for the SDK, path-style (/bucket/key), on a free local port: PUT, GET, HEAD
 * and DELETE of objects in memory. It does not verify SigV4 signatures (that is AWS's code, not
 * ours) but refuses any request that is not signed with our access key, by header or presigned.
 */
async function startFakeS3() {
  const objects = new Map<string, StoredObject>();
  const requests: SeenRequest[] = [];

  const xmlError = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { "content-type": "application/xml" });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake-s3");
    const seen: SeenRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
    };
    requests.push(seen);
    const body = await buffer(req);

    const presigned = url.searchParams.has("X-Amz-Signature");
    const credential = presigned
      ? url.searchParams.get("X-Amz-Credential")
      : /Credential=([^,\s]+)/.exec(seen.authorization ?? "")?.[1];
    const signedByUs = presigned
      ? credential?.startsWith(`${ACCESS_KEY}/`) &&
        url.searchParams.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256"
      : seen.authorization?.startsWith("AWS4-HMAC-SHA256 ") && credential?.startsWith(`${ACCESS_KEY}/`);
    if (!signedByUs) return xmlError(res, 403, "AccessDenied");
    if (presigned) {
      const expires = Number(url.searchParams.get("X-Amz-Expires"));
      const date = url.searchParams.get("X-Amz-Date") ?? "";
      const signedAt = Date.parse(
        date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"),
      );
      if (!Number.isInteger(expires) || Number.isNaN(signedAt))
        return xmlError(res, 400, "AuthorizationQueryParametersError");
      if (Date.now() > signedAt + expires * 1000) return xmlError(res, 403, "AccessDenied");
    }

    const [, bucket, ...rest] = url.pathname.split("/");
    if (bucket !== BUCKET) return xmlError(res, 404, "NoSuchBucket");
    const key = decodeURIComponent(rest.join("/"));
    const stored = objects.get(key);
    const etag = (b: Buffer) => `"${createHash("md5").update(b).digest("hex")}"`;

    switch (req.method) {
      case "PUT": {
        if (req.headers["content-encoding"]?.includes("aws-chunked"))
          return xmlError(res, 501, "NotImplemented");
        objects.set(key, { body, contentType: req.headers["content-type"] ?? "binary/octet-stream" });
        res.writeHead(200, { etag: etag(body) });
        return res.end();
      }
      case "GET":
      case "HEAD": {
        if (!stored) {
          if (req.method === "HEAD") {
            res.writeHead(404);
            return res.end();
          }
          return xmlError(res, 404, "NoSuchKey");
        }
        const disposition = url.searchParams.get("response-content-disposition");
        res.writeHead(200, {
          "content-type": stored.contentType,
          "content-length": String(stored.body.length),
          etag: etag(stored.body),
          "last-modified": new Date().toUTCString(),
          ...(disposition ? { "content-disposition": disposition } : {}),
        });
        return res.end(req.method === "GET" ? stored.body : undefined);
      }
      case "DELETE": {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      default:
        return xmlError(res, 405, "MethodNotAllowed");
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => xmlError(res, 500, "InternalError"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let fake: Awaited<ReturnType<typeof startFakeS3>>;
let storage: ObjectStorage;

function s3Storage(overrides: Record<string, string> = {}): ObjectStorage {
  const env = storageEnvSchema.parse({
    STORAGE_PROVIDER: "s3",
    S3_ENDPOINT: fake.endpoint,
    S3_REGION: "eu-west-3",
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: SECRET_KEY,
    ...overrides,
  });
  return createObjectStorage(env, { apiPublicUrl: "http://unused", signingSecret: "unused" });
}

beforeAll(async () => {
  fake = await startFakeS3();
  storage = s3Storage();
});

afterAll(async () => {
  if (storage instanceof S3ObjectStorage) storage.destroy();
  await fake.close();
});

beforeEach(() => {
  fake.objects.clear();
  fake.requests.length = 0;
});

describe("the S3 storage against a local fake S3", () => {
  it("puts, heads, gets and deletes, signing every request with the access key", async () => {
    expect(storage.kind).toBe("s3");
    const key = "uploads/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3c";
    await storage.put(key, Buffer.from("%PDF-1.4 pretend"), { contentType: "application/pdf" });

    expect(fake.objects.get(key)).toEqual({
      body: Buffer.from("%PDF-1.4 pretend"),
      contentType: "application/pdf",
    });
    expect(await storage.head(key)).toEqual({ size: 16, contentType: "application/pdf" });
    expect(await text(await storage.get(key))).toBe("%PDF-1.4 pretend");

    await storage.delete(key);
    expect(fake.objects.has(key)).toBe(false);
    expect(await storage.head(key)).toBeNull();
    await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);

    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /${BUCKET}/${key}`,
      `HEAD /${BUCKET}/${key}`,
      `GET /${BUCKET}/${key}`,
      `DELETE /${BUCKET}/${key}`,
      `HEAD /${BUCKET}/${key}`,
      `GET /${BUCKET}/${key}`,
    ]);
    for (const request of fake.requests) {
      expect(request.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/\\d{8}/eu-west-3/s3/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$`,
        ),
      );
    }
  });

  it("streams a body of known length", async () => {
    const chunks = Array.from({ length: 64 }, (_, i) => Buffer.alloc(1024, i));
    const size = 64 * 1024;
    await storage.put("uploads/stream", Readable.from(chunks), {
      contentType: "video/mp4",
      contentLength: size,
    });
    expect(fake.objects.get("uploads/stream")?.body.equals(Buffer.concat(chunks))).toBe(true);
    expect(await storage.head("uploads/stream")).toEqual({ size, contentType: "video/mp4" });
  });

  it("refuses a stream of unknown length before calling S3", async () => {
    await expect(
      storage.put("uploads/unknown", Readable.from([Buffer.from("x")]), { contentType: "text/plain" }),
    ).rejects.toThrow(/contentLength is required/);
    expect(fake.requests).toEqual([]);
  });

  it("refuses traversal keys without a request", async () => {
    for (const key of [
      "../other-bucket/x",
      "/uploads/x",
      "uploads/../x",
      "uploads/x?versionId=1",
      "uploads/%2e%2e",
    ]) {
      await expect(storage.put(key, Buffer.from("x"), { contentType: "text/plain" })).rejects.toBeInstanceOf(
        InvalidObjectKeyError,
      );
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.head(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(
        storage.signedUrl(key, { purpose: "original-view", expiresInSeconds: 60 }),
      ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    expect(fake.requests).toEqual([]);
  });

  it("fails loudly with wrong credentials instead of reading as absent", async () => {
    const intruder = s3Storage({ S3_ACCESS_KEY_ID: "AKIAINTRUDER" });
    await storage.put("uploads/private", Buffer.from("paid"), { contentType: "text/plain" });
    await expect(intruder.get("uploads/private")).rejects.toThrow();
    await expect(
      intruder.put("uploads/x", Buffer.from("x"), { contentType: "text/plain" }),
    ).rejects.toThrow();
    if (intruder instanceof S3ObjectStorage) intruder.destroy();
  });

  it("presigns a GET URL the server serves, with the download name as Content-Disposition", async () => {
    const key = "originals/file-1";
    await storage.put(key, Buffer.from("the paid file"), { contentType: "application/zip" });
    const url = new URL(
      await storage.signedUrl(key, {
        purpose: "original-download",
        expiresInSeconds: 120,
        downloadName: "Album « été ».zip",
      }),
    );

    expect(`${url.origin}${url.pathname}`).toBe(`${fake.endpoint}/${BUCKET}/${key}`);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("120");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(new RegExp(`^${ACCESS_KEY}/`));
    // The secret itself never appears in a URL handed to a browser.
    expect(url.toString()).not.toContain(SECRET_KEY);

    fake.requests.length = 0;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("the paid file");
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(
      "attachment; filename=\"Album _ _t_ _.zip\"; filename*=UTF-8''Album%20%C2%AB%20%C3%A9t%C3%A9%20%C2%BB.zip",
    );
    // No Authorization header: the URL alone is the credential, as a browser would use it.
    expect(fake.requests[0]?.authorization).toBeUndefined();
  });

  it("presigns without a download name and caps the lifetime at SigV4's seven days", async () => {
    const url = new URL(
      await storage.signedUrl("originals/file-2", {
        purpose: "original-view",
        expiresInSeconds: 30 * 24 * 3600,
      }),
    );
    expect(url.searchParams.has("response-content-disposition")).toBe(false);
    expect(url.searchParams.get("X-Amz-Expires")).toBe(String(7 * 24 * 3600));
    const missing = await fetch(url);
    expect(missing.status).toBe(404);
  });

  it("signs a key only for the purpose of its key space (SigV4 binds the key itself)", async () => {
    await expect(
      storage.signedUrl("previews/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3c", {
        purpose: "original-download",
        expiresInSeconds: 60,
      }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(
      storage.signedUrl("originals/0b9c5c1e-1a4c-4c55-9d0e-5b7d3f1a2b3c", {
        purpose: "preview",
        expiresInSeconds: 60,
      }),
    ).rejects.toBeInstanceOf(InvalidObjectKeyError);
    expect(fake.requests).toEqual([]);
  });

  it("uses virtual-host addressing when path style is off", async () => {
    const hosted = s3Storage({ S3_FORCE_PATH_STYLE: "false", S3_ENDPOINT: "https://s3.example.test" });
    const url = new URL(
      await hosted.signedUrl("originals/x", { purpose: "original-view", expiresInSeconds: 60 }),
    );
    expect(url.host).toBe(`${BUCKET}.s3.example.test`);
    expect(url.pathname).toBe("/originals/x");
    if (hosted instanceof S3ObjectStorage) hosted.destroy();
  });
});
