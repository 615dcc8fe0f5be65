import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UploadedFile } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files } from "../../src/db/schema/index.ts";
import { sanitizeFileName } from "../../src/modules/uploads/service.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { multipart, type Part } from "../support/uploads.ts";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../fixtures/files", name));
const PNG = fixture("photo.png");
const PDF = fixture("document.pdf");

let ctx: TestContext;
let uploadsDir: string;
let cookie: string;

function upload(use: string, parts: Part[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  return ctx.app.inject({
    method: "POST",
    url: `/upload?use=${use}`,
    headers: { cookie, "content-type": contentType, ...headers },
    payload: body,
  });
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
  } catch {
    return [];
  }
}
const storedObjects = () => listFiles(path.join(uploadsDir, "objects"));
const tempUploads = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith("salelink-upload-"));

async function rowOf(id: string) {
  const [row] = await ctx.database.db.select().from(files).where(eq(files.id, id));
  return row;
}

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-uploads-test-"));
  ctx = await testApp({ UPLOADS_DIR: uploadsDir });
  cookie = (await accountWithSession(ctx.database, { onboarded: true })).cookie;
});

afterAll(async () => {
  await ctx.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe("POST /upload", () => {
  it("needs a session", async () => {
    const { body, contentType } = multipart([{ filename: "a.png", data: PNG }]);
    const res = await ctx.app.inject({
      method: "POST",
      url: "/upload?use=avatar",
      headers: { "content-type": contentType },
      payload: body,
    });
    expect(res.statusCode).toBe(401);
  });

  it("stores an avatar PNG with a cover rendition and no blurred preview", async () => {
    const res = await upload("avatar", [
      { filename: "../../me/photo.png", contentType: "image/png", data: PNG },
    ]);
    expect(res.statusCode).toBe(201);
    const file = res.json<UploadedFile & Record<string, unknown>>();
    expect(file).toMatchObject({ kind: "image", contentType: "image/png", sizeBytes: PNG.length });
    expect(file.originalName).toBe("photo.png");
    expect(Object.keys(file).sort()).toEqual(
      ["contentType", "createdAt", "id", "kind", "originalName", "sizeBytes"].sort(),
    );
    expect(res.body).not.toContain("originals/");

    const row = await rowOf(file.id);
    expect(row).toMatchObject({ kind: "image", contentType: "image/png", sizeBytes: PNG.length });
    expect(row?.storageKey).toMatch(/^originals\//);
    const { storage } = ctx.app.services;
    expect(await storage.head(row?.storageKey ?? "")).toEqual({ size: PNG.length, contentType: "image/png" });
    expect((await storage.head(row?.coverKey ?? ""))?.contentType).toBe("image/webp");
    expect(row?.previewKey).toBeNull();
    expect(row?.coverKey).toMatch(/^covers\//);
    expect(tempUploads()).toEqual([]);
  });

  it("gives paid image content a blurred preview only: no sharp cover of what is sold", async () => {
    const res = await upload("content", [{ filename: "art.png", contentType: "image/png", data: PNG }]);
    expect(res.statusCode).toBe(201);
    const row = await rowOf(res.json<UploadedFile>().id);
    expect(row?.previewKey).toMatch(/^previews\//);
    expect((await ctx.app.services.storage.head(row?.previewKey ?? ""))?.contentType).toBe("image/webp");
    expect(row?.coverKey).toBeNull();
  });

  it("refuses a PDF named .png as an avatar, and accepts it as content", async () => {
    const before = storedObjects().length;
    const refused = await upload("avatar", [{ filename: "photo.png", contentType: "image/png", data: PDF }]);
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({
      error: "ValidationException",
      errors: { file: ["File is of invalid type"] },
    });
    expect(storedObjects().length).toBe(before);

    const accepted = await upload("content", [
      { filename: "photo.png", contentType: "image/png", data: PDF },
    ]);
    expect(accepted.statusCode).toBe(201);
    const file = accepted.json<UploadedFile>();
    expect(file).toMatchObject({ kind: "pdf", contentType: "application/pdf", sizeBytes: PDF.length });
    const row = await rowOf(file.id);
    expect(row?.previewKey).toBeNull();
    expect(row?.coverKey).toBeNull();
    expect(tempUploads()).toEqual([]);
  });

  it("refuses a file over the use's limit, leaving nothing behind", async () => {
    const before = storedObjects().length;
    const rowsBefore = await ctx.database.db.$count(files);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1 - PNG.length)]);
    const res = await upload("avatar", [{ filename: "big.png", data: big }]);
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).error).toBe("PayloadTooLargeException");
    expect(errorOf(res).errors).toEqual({ file: ["File is too large"] });
    expect(await ctx.database.db.$count(files)).toBe(rowsBefore);
    expect(storedObjects().length).toBe(before);
    expect(tempUploads()).toEqual([]);
  });

  it("refuses an empty file and more than one file", async () => {
    const empty = await upload("content", [{ filename: "empty.bin", data: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).errors).toEqual({ file: ["File is too small"] });

    const two = await upload("content", [
      { filename: "a.pdf", data: PDF },
      { filename: "b.pdf", data: PDF },
    ]);
    expect(two.statusCode).toBe(400);
    expect(errorOf(two).errors).toEqual({ file: ["Max files"] });
    expect(tempUploads()).toEqual([]);
  });

  it("answers in French", async () => {
    const res = await upload("avatar", [{ filename: "x.png", data: PDF }], { "x-locale": "fr" });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toEqual({ file: ["Le type de fichier n'est pas valide"] });
  });
});

describe("GET /files/*", () => {
  it("serves a signed URL's bytes and refuses a tampered one", async () => {
    const res = await upload("content", [{ filename: "doc.pdf", data: PDF }]);
    const row = await rowOf(res.json<UploadedFile>().id);
    const key = row?.storageKey ?? "";
    const signed = new URL(
      await ctx.app.services.storage.signedUrl(key, {
        purpose: "original-download",
        expiresInSeconds: 60,
        downloadName: "Mon doc.pdf",
      }),
    );
    const url = `${signed.pathname}${signed.search}`;
    const ok = await ctx.app.inject({ method: "GET", url });
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(PDF)).toBe(true);
    expect(ok.headers["content-type"]).toBe("application/pdf");
    expect(ok.headers["x-content-type-options"]).toBe("nosniff");
    expect(ok.headers["cache-control"]).toBe("private, no-store");
    expect(ok.headers["content-disposition"]).toContain('filename="Mon doc.pdf"');

    const tamperedName = new URL(signed);
    tamperedName.searchParams.set("name", "other.pdf");
    const otherKey = `${signed.pathname.replace(/[^/]+$/, "00000000-0000-0000-0000-000000000000")}${signed.search}`;
    const badSig = new URL(signed);
    badSig.searchParams.set("sig", "x".repeat(43));
    for (const bad of [
      `${tamperedName.pathname}${tamperedName.search}`,
      otherKey,
      `${badSig.pathname}${badSig.search}`,
    ]) {
      expect((await ctx.app.inject({ method: "GET", url: bad })).statusCode).toBe(404);
    }
    expect((await ctx.app.inject({ method: "GET", url: signed.pathname })).statusCode).toBe(404);
  });
});

describe("sanitizeFileName", () => {
  it("drops paths and control characters and keeps 200 characters", () => {
    expect(sanitizeFileName("C:\\Users\\me\\a.pdf")).toBe("a.pdf");
    expect(sanitizeFileName("a\u0000b\nc.pdf")).toBe("abc.pdf");
    expect(sanitizeFileName("")).toBe("file");
    expect(Array.from(sanitizeFileName(`${"é".repeat(300)}.pdf`)).length).toBe(200);
  });
});
