import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { CreatorPage, CreatorProfile, Link, PublicLink, UploadedFile } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkStockUnits, links } from "../../src/db/schema/index.ts";
import { directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { multipart } from "../support/uploads.ts";

/*
 * What a link shows of its files (owner and buyer), the public renditions under /media, the
 * spec's `/product`, and the web cache refresh an edit asks for.
 */

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../fixtures/files", name));
const PNG = fixture("photo.png");
const PDF = fixture("document.pdf");
const SECRET = "r".repeat(40);

let ctx: TestContext;
let uploadsDir: string;
let web: Server;
let refreshes: { auth: string | undefined; tags: string[] }[] = [];
let alice: string;
let bob: string;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function call(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  cookie?: string,
  payload?: object,
) {
  return ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });
}

async function upload(cookie: string, use: string, filename: string, data: Buffer): Promise<UploadedFile> {
  const { body, contentType } = multipart([{ filename, data }]);
  const res = await ctx.app.inject({
    method: "POST",
    url: `/upload?use=${use}`,
    headers: { cookie, "content-type": contentType },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UploadedFile>();
}

async function profileOf(cookie: string, extra: object = {}): Promise<CreatorProfile> {
  const res = await call("POST", "/profiles", cookie, {
    displayName: "Ada",
    handle: `h_${randomBytes(5).toString("hex")}`,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatorProfile>();
}

async function linkOf(cookie: string, profileId: string, extra: object = {}): Promise<Link> {
  const res = await call("POST", "/links", cookie, {
    profileId,
    title: "Sunset pack",
    priceMinor: 1500,
    currency: "EUR",
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Link>();
}

beforeAll(async () => {
  web = createServer((req, res) => {
    void readBody(req).then((body) => {
      refreshes.push({
        auth: req.headers.authorization,
        tags: (JSON.parse(body) as { tags: string[] }).tags,
      });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  const { port } = web.address() as AddressInfo;
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-media-test-"));
  ctx = await testApp({
    UPLOADS_DIR: uploadsDir,
    WEB_REVALIDATE_URL: `http://127.0.0.1:${port}/api/revalidate`,
    WEB_REVALIDATE_SECRET: SECRET,
  });
  for (const who of ["alice", "bob"] as const) {
    const account = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await directSessionCookie(ctx.database, account.id);
    if (who === "alice") alice = cookie;
    else bob = cookie;
  }
});

afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => web.close(resolve));
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe("a link's files", () => {
  it("shows its owner the sold file and both renditions, and a buyer only the public ones", async () => {
    const paid = await upload(alice, "content", "art.png", PNG);
    const cover = await upload(alice, "cover", "cover.png", PNG);
    const profile = await profileOf(alice);
    const link = await linkOf(alice, profile.id, { fileId: paid.id, coverFileId: cover.id });
    expect(link.file).toEqual(paid);
    expect(link.coverFileId).toBe(cover.id);
    expect(link.previewUrl).toMatch(/^\/media\/previews\/[0-9a-f-]{36}$/);
    expect(link.coverUrl).toMatch(/^\/media\/covers\/[0-9a-f-]{36}$/);

    const buyer = (await call("GET", `/public/links/${link.token}`)).json<PublicLink>();
    expect(buyer).toMatchObject({ previewUrl: link.previewUrl, coverUrl: link.coverUrl, fileKind: "image" });

    for (const url of [link.previewUrl, link.coverUrl]) {
      const res = await call("GET", url ?? "");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/webp");
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
      expect(res.rawPayload.subarray(0, 4).toString("latin1")).toBe("RIFF");
    }
  });

  it("gives a PDF no preview: the buyer sees its kind for a generic card", async () => {
    const pdf = await upload(alice, "content", "guide.pdf", PDF);
    const link = await linkOf(alice, (await profileOf(alice)).id, { fileId: pdf.id });
    expect(link).toMatchObject({
      previewUrl: null,
      coverUrl: null,
      file: { kind: "pdf", originalName: "guide.pdf" },
    });
    const buyer = (await call("GET", `/public/links/${link.token}`)).json<PublicLink>();
    expect(buyer).toMatchObject({ previewUrl: null, coverUrl: null, fileKind: "pdf" });
  });

  it("takes as a cover only my own image uploaded for display", async () => {
    const profile = await profileOf(alice);
    const pdf = await upload(alice, "content", "guide.pdf", PDF);
    const paidImage = await upload(alice, "content", "art.png", PNG);
    for (const fileId of [pdf.id, paidImage.id]) {
      const res = await call("POST", "/links", alice, {
        profileId: profile.id,
        title: "T",
        priceMinor: 500,
        currency: "EUR",
        coverFileId: fileId,
      });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).errors).toEqual({ coverFileId: ["Upload an image for this."] });
    }
    const bobsCover = await upload(bob, "cover", "c.png", PNG);
    const link = await linkOf(alice, profile.id);
    expect((await call("PATCH", `/links/${link.id}`, alice, { coverFileId: bobsCover.id })).statusCode).toBe(
      404,
    );
  });

  it("serves renditions only: never an original, and 404 for an unknown name", async () => {
    expect((await call("GET", `/media/previews/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await call("GET", `/media/uploads/${crypto.randomUUID()}`)).statusCode).toBe(400);
    expect((await call("GET", "/media/previews/..%2Fuploads%2Fx")).statusCode).toBe(400);
  });

  it("says when a limited stock is sold out", async () => {
    const profile = await profileOf(alice);
    const open = await linkOf(alice, profile.id, { stockLimit: 2 });
    const sold = await linkOf(alice, profile.id, { stockLimit: 2 });
    // Both units sold (decision 032: a limited stock is its units).
    await ctx.database.db
      .update(linkStockUnits)
      .set({ sold: true })
      .where(eq(linkStockUnits.linkId, sold.id));
    expect((await call("GET", `/public/links/${open.token}`)).json<PublicLink>().soldOut).toBe(false);
    expect((await call("GET", `/public/links/${sold.token}`)).json<PublicLink>().soldOut).toBe(true);
  });
});

describe("this instance's cache of public reads", () => {
  it("serves a public link from memory, and forgets it when its creator edits it here", async () => {
    const profile = await profileOf(alice);
    const link = await linkOf(alice, profile.id);
    const read = async () => (await call("GET", `/public/links/${link.token}`)).json<PublicLink>().title;
    expect(await read()).toBe("Sunset pack");
    // A change behind the API's back is not seen within the cache's time to live...
    await ctx.database.db
      .update(links)
      .set({ title: "Changed in the database" })
      .where(eq(links.id, link.id));
    expect(await read()).toBe("Sunset pack");
    // ...an edit through the API is, at once; so is a pause (404) and a resume.
    await call("PATCH", `/links/${link.id}`, alice, { title: "Edited" });
    expect(await read()).toBe("Edited");
    await call("POST", `/links/${link.id}/pause`, alice);
    expect((await call("GET", `/public/links/${link.token}`)).statusCode).toBe(404);
    await call("POST", `/links/${link.id}/resume`, alice);
    expect(await read()).toBe("Edited");
  });

  it("forgets a creator page when the profile or its portfolio changes, and a cached 404 when the handle is taken", async () => {
    const handle = `h_${randomBytes(5).toString("hex")}`;
    expect((await call("GET", `/creators/${handle}`)).statusCode).toBe(404);
    const profile = await profileOf(alice, { handle });
    const page = async () => (await call("GET", `/creators/${handle}`)).json<CreatorPage>();
    expect((await page()).profile.displayName).toBe("Ada");
    await call("PATCH", `/profiles/${profile.id}`, alice, { displayName: "Ada L." });
    expect((await page()).profile.displayName).toBe("Ada L.");
    // A new link is on the page at once (it is there by default), and leaves it when hidden.
    const link = await linkOf(alice, profile.id);
    expect((await page()).links.map((l) => l.token)).toEqual([link.token]);
    await call("PUT", `/profiles/${profile.id}/portfolio`, alice, { linkIds: [] });
    expect((await page()).links).toEqual([]);
    await call("PUT", `/profiles/${profile.id}/portfolio`, alice, { linkIds: [link.id] });
    expect((await page()).links.map((l) => l.token)).toEqual([link.token]);
  });
});

describe("profile avatars", () => {
  it("shows my profile's avatar rendition, and refuses a file that is not an image uploaded for display", async () => {
    const avatar = await upload(alice, "avatar", "me.png", PNG);
    const profile = await profileOf(alice, { avatarFileId: avatar.id });
    expect(profile.avatarUrl).toMatch(/^\/media\/covers\//);
    const listed = (await call("GET", "/profiles", alice)).json<{ items: CreatorProfile[] }>();
    expect(listed.items.find((p) => p.id === profile.id)?.avatarUrl).toBe(profile.avatarUrl);
    expect((await call("GET", profile.avatarUrl ?? "")).statusCode).toBe(200);

    const pdf = await upload(alice, "content", "guide.pdf", PDF);
    const refused = await call("PATCH", `/profiles/${profile.id}`, alice, { avatarFileId: pdf.id });
    expect(refused.statusCode).toBe(400);
    const removed = (
      await call("PATCH", `/profiles/${profile.id}`, alice, { avatarFileId: null })
    ).json<CreatorProfile>();
    expect(removed).toMatchObject({ avatarFileId: null, avatarUrl: null });
  });
});

describe("/product", () => {
  it("reads and renames my product; another account gets 404; the title is checked", async () => {
    const link = await linkOf(alice, (await profileOf(alice)).id);
    const read = await call("GET", `/product/${link.id}`, alice);
    expect(read.json<Link>()).toMatchObject({ id: link.id, title: "Sunset pack" });
    const renamed = await call("PATCH", `/product/${link.id}`, alice, { title: "  Dawn pack " });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Link>().title).toBe("Dawn pack");
    const empty = await call("PATCH", `/product/${link.id}`, alice, { title: "  " });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(errorOf(empty).errors ?? {})).toEqual(["title"]);
    expect((await call("GET", `/product/${link.id}`, bob)).statusCode).toBe(404);
    expect((await call("PATCH", `/product/${link.id}`, bob, { title: "Mine" })).statusCode).toBe(404);
    expect((await call("GET", `/product/${link.id}`)).statusCode).toBe(401);
  });
});

describe("web cache refresh", () => {
  async function runJobs() {
    await ctx.app.services.jobs.worker.runDue();
  }

  it("asks the web app to drop the pages an edit changes, with the shared secret", async () => {
    const profile = await profileOf(alice);
    const link = await linkOf(alice, profile.id);
    await runJobs();
    refreshes = [];

    await call("PATCH", `/product/${link.id}`, alice, { title: "New title" });
    await runJobs();
    expect(refreshes).toEqual([
      {
        auth: `Bearer ${SECRET}`,
        tags: [`link:${link.token}`, `creator:${profile.id}`, `creator:${profile.handle}`],
      },
    ]);

    refreshes = [];
    const newHandle = `h_${randomBytes(5).toString("hex")}`;
    await call("PATCH", `/profiles/${profile.id}`, alice, { handle: newHandle });
    await runJobs();
    expect(refreshes).toHaveLength(1);
    expect(new Set(refreshes[0]?.tags)).toEqual(
      new Set([
        `creator:${profile.id}`,
        `creator:${newHandle}`,
        `creator:${profile.handle}`,
        `link:${link.token}`,
      ]),
    );

    refreshes = [];
    await call("POST", `/links/${link.id}/pause`, alice);
    await call("DELETE", `/links/${link.id}`, alice);
    await runJobs();
    expect(refreshes.map((r) => r.tags[0])).toEqual([`link:${link.token}`, `link:${link.token}`]);
  });

  it("asks for nothing when an edit fails", async () => {
    const link = await linkOf(alice, (await profileOf(alice)).id);
    await runJobs();
    refreshes = [];
    expect((await call("PATCH", `/links/${link.id}`, alice, { priceMinor: 1 })).statusCode).toBe(400);
    expect((await call("PATCH", `/links/${link.id}`, bob, { title: "x" })).statusCode).toBe(404);
    await runJobs();
    expect(refreshes).toEqual([]);
  });
});
