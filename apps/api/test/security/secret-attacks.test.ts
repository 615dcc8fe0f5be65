import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CheckoutResponse, CheckoutStatus, Link } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files } from "../../src/db/schema/index.ts";
import { sandboxEvent, sandboxWebhookSecret } from "../../src/providers/payments/index.ts";
import { LocalDiskStorage } from "../../src/providers/storage/index.ts";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers, deliverSandboxEvent } from "../support/checkout.ts";
import { multipart } from "../support/uploads.ts";

/*
 * Issue 16, item 2: the development fallback APP_SECRET was public, so anyone could sign storage
 * URLs (a paid original sat at the key of its public preview's name) and forge sandbox webhooks.
 */

/** The constant the source used to fall back to, as an attacker would have read it. */
const OLD_PUBLIC_SECRET = "development-only-secret-not-for-production-use";

let ctx: TestContext;
let creatorCookie: string;
let uploadsDir: string;
const helpers = checkoutHelpers(() => ctx);
const photo = readFileSync(path.resolve(import.meta.dirname, "../fixtures/files/photo.jpg"));

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-secret-attacks-"));
  ctx = await testApp({ UPLOADS_DIR: uploadsDir });
  creatorCookie = (await accountWithSession(ctx.database, { onboarded: true })).cookie;
});
afterAll(async () => {
  await ctx.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

/** A link selling a photo: its public page shows the blurred preview, its original is paid. */
async function photoLink(): Promise<{ link: Link; storageKey: string; previewKey: string }> {
  const { body, contentType } = multipart([{ filename: "sunset.jpg", data: photo }]);
  const uploaded = await ctx.app.inject({
    method: "POST",
    url: "/upload?use=content",
    headers: { cookie: creatorCookie, "content-type": contentType },
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const fileId = uploaded.json<{ id: string }>().id;
  const [row] = await ctx.database.db.select().from(files).where(eq(files.id, fileId));
  if (!row?.previewKey) throw new Error("no preview stored");
  const link = await helpers.newLink(creatorCookie, { fileId });
  return { link, storageKey: row.storageKey, previewKey: row.previewKey };
}

const local = (secret: string) =>
  new LocalDiskStorage({ root: uploadsDir, apiPublicUrl: ctx.config.API_PUBLIC_URL, signingSecret: secret });
const get = (url: string) =>
  ctx.app.inject({ method: "GET", url: url.replace(ctx.config.API_PUBLIC_URL, "") });

describe("a secret other than the configured one", () => {
  it("is refused for a sandbox payment webhook: the unpaid order stays unpaid", async () => {
    const { link } = await photoLink();
    const started = (await helpers.checkout(link.token)).json<CheckoutResponse>();
    const paid = sandboxEvent("payment.succeeded", {
      paymentId: started.paymentId,
      orderId: started.orderId,
      amountMinor: 2000,
      currency: "EUR",
    });
    const forged = await deliverSandboxEvent(ctx, paid, { secret: sandboxWebhookSecret(OLD_PUBLIC_SECRET) });
    expect(forged.statusCode).toBe(400);
    const status = async () =>
      (
        await helpers.call("GET", `/checkout/${started.orderId}?secret=${started.checkoutSecret}`)
      ).json<CheckoutStatus>().status;
    expect(await status()).toBe("pending");
    // The same event signed with the configured secret is applied: the refusal was the signature.
    const genuine = await deliverSandboxEvent(ctx, paid);
    expect(genuine.statusCode, genuine.body).toBe(200);
    expect(await status()).toBe("paid");
  });

  it("is refused for a storage URL, with the key and purpose the server itself would sign", async () => {
    const { storageKey } = await photoLink();
    const forged = await local(OLD_PUBLIC_SECRET).signedUrl(storageKey, {
      purpose: "original-download",
      expiresInSeconds: 600,
      downloadName: "sunset.jpg",
    });
    expect((await get(forged)).statusCode).toBe(404);
    const genuine = await ctx.app.services.storage.signedUrl(storageKey, {
      purpose: "original-download",
      expiresInSeconds: 600,
      downloadName: "sunset.jpg",
    });
    const served = await get(genuine);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(photo)).toBe(true);
  });
});

describe("with the real secret", () => {
  it("keeps a paid original apart from its preview: no name of one gives the other", async () => {
    const { link, storageKey, previewKey } = await photoLink();
    expect(storageKey).toMatch(/^originals\/[0-9a-f-]{36}$/);
    expect(previewKey).toMatch(/^previews\/[0-9a-f-]{36}$/);
    const previewName = previewKey.split("/")[1] ?? "";
    const originalName = storageKey.split("/")[1] ?? "";
    expect(originalName).not.toBe(previewName);

    // What the public page tells a visitor, and every key derived from it, holds no original.
    const page = await helpers.call("GET", `/public/links/${link.token}`);
    expect(page.statusCode).toBe(200);
    expect(page.json<{ previewUrl: string }>().previewUrl).toBe(`/media/${previewKey}`);
    expect(page.body).not.toContain(originalName);
    for (const guess of [`originals/${previewName}`, `uploads/${previewName}`, `covers/${previewName}`])
      expect(await ctx.app.services.storage.head(guess)).toBeNull();
  });

  it("never lets a preview's signed URL open the original, by swapping the key or the purpose", async () => {
    const { storageKey, previewKey } = await photoLink();
    const storage = ctx.app.services.storage;
    const previewUrl = new URL(
      await storage.signedUrl(previewKey, { purpose: "preview", expiresInSeconds: 600 }),
    );
    expect((await get(previewUrl.toString())).statusCode).toBe(200);

    const swappedKey = new URL(previewUrl);
    swappedKey.pathname = `/files/${storageKey}`;
    expect((await get(swappedKey.toString())).statusCode).toBe(404);

    const relabelled = new URL(swappedKey);
    relabelled.searchParams.set("purpose", "original-download");
    expect((await get(relabelled.toString())).statusCode).toBe(404);

    const guessed = new URL(previewUrl);
    guessed.pathname = `/files/originals/${previewKey.split("/")[1]}`;
    expect((await get(guessed.toString())).statusCode).toBe(404);

    // Nor does the original's own view signature stretch to a download (a purpose it did not name).
    const view = new URL(
      await storage.signedUrl(storageKey, { purpose: "original-view", expiresInSeconds: 600 }),
    );
    expect((await get(view.toString())).statusCode).toBe(200);
    view.searchParams.set("purpose", "original-download");
    expect((await get(view.toString())).statusCode).toBe(404);

    // The server refuses to sign across key spaces at all.
    await expect(
      storage.signedUrl(storageKey, { purpose: "preview", expiresInSeconds: 60 }),
    ).rejects.toThrow();
    await expect(
      storage.signedUrl(previewKey, { purpose: "original-download", expiresInSeconds: 60 }),
    ).rejects.toThrow();
  });
});
