import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UploadedFile, UploadUsage } from "@salelink/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { files, jobs } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { multipart } from "../support/uploads.ts";

/*
 * Issue 16, uploads without quota: a per-account storage quota and upload rate, refused before the
 * bytes are stored, in the one error format and the caller's language; uploads attached to nothing
 * removed by a job after UPLOAD_UNATTACHED_TTL_HOURS, files and rows, never an attached one.
 */

const KiB = 1024;
/** Bytes that are a valid "other" file for paid content (no type restriction), of a given size. */
const blob = (size: number, fill = 7) => Buffer.alloc(size, fill);

let ctx: TestContext;
let uploadsDir: string;
const contexts: Array<{ ctx: TestContext; dir: string }> = [];

async function app(overrides: Record<string, string>) {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-quota-test-"));
  ctx = await testApp({ UPLOADS_DIR: uploadsDir, ...overrides });
  contexts.push({ ctx, dir: uploadsDir });
}

async function account() {
  return accountWithSession(ctx.database, { onboarded: true });
}

function upload(cookie: string, data: Buffer, headers: Record<string, string> = {}) {
  const { body, contentType } = multipart([{ filename: "pack.bin", data }]);
  return ctx.app.inject({
    method: "POST",
    url: "/upload?use=content",
    headers: { cookie, "content-type": contentType, ...headers },
    payload: body,
  });
}

const storedObjects = () => {
  try {
    return readdirSync(path.join(uploadsDir, "objects"), { recursive: true, withFileTypes: true }).filter(
      (d) => d.isFile(),
    ).length;
  } catch {
    return 0;
  }
};

async function usage(cookie: string): Promise<UploadUsage> {
  const res = await ctx.app.inject({ url: "/profile/storage", headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadUsage>();
}

const rowsOf = async (ownerId: string) =>
  ctx.database.db.select().from(files).where(eq(files.ownerId, ownerId));

/** Makes the queued jobs of `kind` due now, then runs what is due (twice: a job may queue another). */
async function runNow(kind?: string) {
  await ctx.database.db
    .update(jobs)
    .set({ runAt: new Date(Date.now() - 1000) })
    .where(kind ? and(eq(jobs.kind, kind), eq(jobs.status, "queued")) : eq(jobs.status, "queued"));
  await ctx.app.services.jobs.worker.runDue();
  await ctx.app.services.jobs.worker.runDue();
}

afterEach(async () => {
  for (const c of contexts.splice(0)) {
    await c.ctx.close();
    rmSync(c.dir, { recursive: true, force: true });
  }
});

describe("storage quota per account", () => {
  it("refuses an upload past the quota with 413 before storing it, in the caller's language", async () => {
    await app({ UPLOAD_QUOTA_MB: "1" });
    const me = await account();
    expect(await usage(me.cookie)).toMatchObject({ usedBytes: 0, quotaBytes: 1024 * KiB });

    const first = await upload(me.cookie, blob(600 * KiB));
    expect(first.statusCode, first.body).toBe(201);
    const objects = storedObjects();
    expect(await usage(me.cookie)).toMatchObject({ usedBytes: 600 * KiB });

    // The attack: keep uploading. The second file does not fit in what is left.
    const second = await upload(me.cookie, blob(600 * KiB), { "x-locale": "fr" });
    expect(second.statusCode).toBe(413);
    expect(errorOf(second)).toMatchObject({
      statusCode: 413,
      error: "PayloadTooLargeException",
      message: "Votre espace de stockage est plein. Supprimez les fichiers dont vous n'avez plus besoin.",
      errors: { file: ["Taille totale maximale dépassée"] },
    });
    // Nothing of it was stored, nothing recorded, no temp file left.
    expect(storedObjects()).toBe(objects);
    expect(await rowsOf(me.id)).toHaveLength(1);
    expect(readdirSync(os.tmpdir()).filter((n) => n.startsWith("salelink-upload-"))).toEqual([]);

    // What fits still goes in; then a full account is refused at once, in English by default.
    expect((await upload(me.cookie, blob(424 * KiB))).statusCode).toBe(201);
    const full = await upload(me.cookie, blob(1));
    expect(full.statusCode).toBe(413);
    expect(errorOf(full).errors).toEqual({ file: ["Maximum total size exceeded"] });
    expect(await usage(me.cookie)).toMatchObject({ usedBytes: 1024 * KiB });

    // Another account has its own quota.
    const other = await account();
    expect((await upload(other.cookie, blob(600 * KiB))).statusCode).toBe(201);
  });

  it("lets only one of two uploads at once take the last room", async () => {
    await app({ UPLOAD_QUOTA_MB: "1" });
    const me = await account();
    const answers = await Promise.all([
      upload(me.cookie, blob(600 * KiB, 1)),
      upload(me.cookie, blob(600 * KiB, 2)),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 413]);
    expect(await rowsOf(me.id)).toHaveLength(1);
    // The refused one's objects were removed again: one original on disk (plus its metadata).
    const [row] = await rowsOf(me.id);
    expect(await ctx.app.services.storage.head(row?.storageKey ?? "")).not.toBeNull();
    expect(await usage(me.cookie)).toMatchObject({ usedBytes: 600 * KiB });
  });
});

describe("upload rate per account", () => {
  it("answers 429 past UPLOAD_RATE_PER_HOUR uploads in the hour, in the caller's language", async () => {
    await app({ UPLOAD_RATE_PER_HOUR: "3" });
    const me = await account();
    for (let i = 0; i < 3; i += 1) expect((await upload(me.cookie, blob(KiB))).statusCode).toBe(201);
    const objects = storedObjects();
    // The attack: upload after upload. The fourth is refused before its body is read.
    const refused = await upload(me.cookie, blob(KiB), { "x-locale": "es" });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).error).toBe("RateLimitException");
    expect(errorOf(refused).message).toMatch(
      /^Has subido demasiados archivos\. Vuelve a intentarlo dentro de /,
    );
    expect(storedObjects()).toBe(objects);
    expect(await rowsOf(me.id)).toHaveLength(3);
    // Per account, not per address: another account on the same address may upload.
    const other = await account();
    expect((await upload(other.cookie, blob(KiB))).statusCode).toBe(201);
    expect((await usage(me.cookie)).uploadsPerHour).toBe(3);
  });
});

describe("unattached uploads cleanup", () => {
  it("removes the files and rows of uploads attached to nothing, never an attached one, and retries storage errors", async () => {
    await app({ UPLOAD_UNATTACHED_TTL_HOURS: "24" });
    const me = await account();
    const profile = await ctx.app.inject({
      method: "POST",
      url: "/profiles",
      headers: { cookie: me.cookie },
      payload: { displayName: "Ada", handle: `ada_${Date.now().toString(36)}` },
    });
    expect(profile.statusCode, profile.body).toBe(201);
    const orphan = (await upload(me.cookie, blob(2 * KiB, 3))).json<UploadedFile>();
    const sold = (await upload(me.cookie, blob(2 * KiB, 4))).json<UploadedFile>();
    const link = await ctx.app.inject({
      method: "POST",
      url: "/links",
      headers: { cookie: me.cookie },
      payload: {
        profileId: profile.json<{ id: string }>().id,
        title: "Pack",
        priceMinor: 500,
        currency: "EUR",
        fileId: sold.id,
      },
    });
    expect(link.statusCode, link.body).toBe(201);
    const [orphanRow] = (await rowsOf(me.id)).filter((r) => r.id === orphan.id);
    const orphanKey = orphanRow?.storageKey ?? "";
    expect(await ctx.app.services.storage.head(orphanKey)).not.toBeNull();

    // Not due before the day is over.
    await ctx.app.services.jobs.worker.runDue();
    expect((await rowsOf(me.id)).map((r) => r.id).sort()).toEqual([orphan.id, sold.id].sort());

    // The storage fails once: the row is gone, the object's removal is retried later.
    const storage = ctx.app.services.storage;
    const original = storage.delete.bind(storage);
    let failures = 0;
    storage.delete = async (key: string) => {
      if (failures === 0) {
        failures += 1;
        throw new Error("storage unavailable");
      }
      return original(key);
    };
    try {
      await runNow("uploads.remove-unattached");
      expect((await rowsOf(me.id)).map((r) => r.id)).toEqual([sold.id]);
      const [removal] = await ctx.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.kind, "uploads.remove-objects"));
      expect(removal).toMatchObject({ status: "queued", attempts: 1 });
      expect(removal?.lastError).toContain("storage unavailable");
      await runNow("uploads.remove-objects");
    } finally {
      storage.delete = original;
    }
    expect(await ctx.app.services.storage.head(orphanKey)).toBeNull();
    const [done] = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, "uploads.remove-objects"));
    expect(done?.status).toBe("done");
    // The attached file is kept, row and bytes.
    const [soldRow] = await rowsOf(me.id);
    expect(await ctx.app.services.storage.head(soldRow?.storageKey ?? "")).not.toBeNull();
    const left = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(eq(jobs.status, "failed"));
    expect(left[0]?.n).toBe(0);
  });
});
