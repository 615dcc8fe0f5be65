import { randomBytes, randomUUID } from "node:crypto";
import type { CreatorPage, CreatorProfile, Link, LinkListResponse, PublicLink } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files, links } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };

async function account() {
  return accountWithSession(ctx.database, { onboarded: true });
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

async function insertFile(ownerId: string, keys: { previewKey?: string; coverKey?: string } = {}) {
  const [row] = await ctx.database.db
    .insert(files)
    .values({
      ownerId,
      storageKey: `private/${randomBytes(8).toString("hex")}`,
      contentType: "image/png",
      kind: "image",
      sizeBytes: 1234,
      originalName: "photo.png",
      previewKey: keys.previewKey ?? null,
      coverKey: keys.coverKey ?? null,
    })
    .returning({ id: files.id, storageKey: files.storageKey });
  if (!row) throw new Error("file not inserted");
  return row;
}

const handle = () => `h_${randomBytes(5).toString("hex")}`;

async function createProfile(cookie: string, extra: object = {}): Promise<CreatorProfile> {
  const res = await call("POST", "/profiles", cookie, { displayName: "Ada", handle: handle(), ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatorProfile>();
}

async function createLink(cookie: string, profileId: string, extra: object = {}): Promise<Link> {
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
  ctx = await testApp();
  alice = await account();
  bob = await account();
});
afterAll(() => ctx.close());

describe("profiles", () => {
  it("needs a session", async () => {
    expect((await call("GET", "/profiles")).statusCode).toBe(401);
    expect((await call("POST", "/profiles", undefined, { displayName: "x", handle: "abc" })).statusCode).toBe(
      401,
    );
  });

  it("creates, lists, edits and deletes my profiles; handles are lower-cased", async () => {
    const h = handle();
    const res = await call("POST", "/profiles", alice.cookie, {
      displayName: "  Ada Lovelace ",
      handle: h.toUpperCase(),
      bio: "Engines",
      socialLinks: ["https://example.com/ada"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const profile = res.json<CreatorProfile>();
    expect(profile).toMatchObject({
      displayName: "Ada Lovelace",
      handle: h,
      bio: "Engines",
      avatarFileId: null,
    });
    const list = (await call("GET", "/profiles", alice.cookie)).json<{ items: CreatorProfile[] }>();
    expect(list.items.map((p) => p.id)).toContain(profile.id);
    const patched = await call("PATCH", `/profiles/${profile.id}`, alice.cookie, { bio: "Notes" });
    expect(patched.json<CreatorProfile>()).toMatchObject({ bio: "Notes", handle: h });
    expect((await call("DELETE", `/profiles/${profile.id}`, alice.cookie)).statusCode).toBe(200);
    expect((await call("PATCH", `/profiles/${profile.id}`, alice.cookie, { bio: "x" })).statusCode).toBe(404);
  });

  it.each([
    [{ displayName: "", handle: "valid_one" }, "displayName"],
    [{ displayName: "x".repeat(61), handle: "valid_one" }, "displayName"],
    [{ displayName: "Ada", handle: "ab" }, "handle"],
    [{ displayName: "Ada", handle: "a".repeat(31) }, "handle"],
    [{ displayName: "Ada", handle: "with space" }, "handle"],
    [{ displayName: "Ada", handle: "dash-ed" }, "handle"],
    [{ displayName: "Ada", handle: "Admin" }, "handle"],
    [{ displayName: "Ada", handle: "salelink" }, "handle"],
    [{ displayName: "Ada", handle: "valid_one", bio: "b".repeat(501) }, "bio"],
    [{ displayName: "Ada", handle: "valid_one", socialLinks: ["http://example.com"] }, "socialLinks.0"],
    [{ displayName: "Ada", handle: "valid_one", socialLinks: ["not a url"] }, "socialLinks.0"],
    [
      { displayName: "Ada", handle: "valid_one", socialLinks: Array(6).fill("https://example.com") },
      "socialLinks",
    ],
    [{ displayName: "Ada", handle: "valid_one", avatarFileId: "nope" }, "avatarFileId"],
  ])("refuses %j with a field error on %s", async (body, field) => {
    const res = await call("POST", "/profiles", alice.cookie, body);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toBe("ValidationException");
    expect(Object.keys(errorOf(res).errors ?? {})).toContain(field);
  });

  it("says a reserved handle is reserved", async () => {
    const res = await call("POST", "/profiles", alice.cookie, { displayName: "A", handle: "support" });
    expect(errorOf(res).errors?.handle).toEqual(["This handle is reserved."]);
  });

  it("keeps handles unique across accounts, whatever the case", async () => {
    const taken = await createProfile(alice.cookie);
    const res = await call("POST", "/profiles", bob.cookie, {
      displayName: "B",
      handle: taken.handle.toUpperCase(),
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors?.handle).toEqual(["This handle is already taken."]);
    const mine = await createProfile(bob.cookie);
    const patch = await call("PATCH", `/profiles/${mine.id}`, bob.cookie, { handle: taken.handle });
    expect(errorOf(patch).errors?.handle).toEqual(["This handle is already taken."]);
  });

  it("accepts only my own file as avatar", async () => {
    const bobsFile = await insertFile(bob.id);
    const res = await call("POST", "/profiles", alice.cookie, {
      displayName: "A",
      handle: handle(),
      avatarFileId: bobsFile.id,
    });
    expect(res.statusCode).toBe(404);
    // A file without a public rendition (a PDF, or paid content) cannot be shown as an avatar.
    const notAnImage = await insertFile(alice.id);
    const refused = await call("POST", "/profiles", alice.cookie, {
      displayName: "A",
      handle: handle(),
      avatarFileId: notAnImage.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).errors).toEqual({ avatarFileId: ["Upload an image for this."] });
    const mine = await insertFile(alice.id, { coverKey: `covers/${randomUUID()}` });
    const ok = await createProfile(alice.cookie, { avatarFileId: mine.id });
    expect(ok.avatarFileId).toBe(mine.id);
    const patch = await call("PATCH", `/profiles/${ok.id}`, alice.cookie, { avatarFileId: bobsFile.id });
    expect(patch.statusCode).toBe(404);
  });

  it("hides my profiles from another account (404, never 403)", async () => {
    const profile = await createProfile(alice.cookie);
    const list = (await call("GET", "/profiles", bob.cookie)).json<{ items: CreatorProfile[] }>();
    expect(list.items.map((p) => p.id)).not.toContain(profile.id);
    expect((await call("PATCH", `/profiles/${profile.id}`, bob.cookie, { bio: "pwned" })).statusCode).toBe(
      404,
    );
    expect((await call("DELETE", `/profiles/${profile.id}`, bob.cookie)).statusCode).toBe(404);
    expect(
      (await call("PUT", `/profiles/${profile.id}/portfolio`, bob.cookie, { linkIds: [] })).statusCode,
    ).toBe(404);
    expect((await call("GET", `/profiles/${profile.id}/portfolio`, bob.cookie)).statusCode).toBe(404);
    expect((await call("PATCH", "/profiles/not-a-uuid", alice.cookie, { bio: "x" })).statusCode).toBe(400);
  });

  it("refuses to delete a profile that has links (409), allows it once they are gone", async () => {
    const profile = await createProfile(alice.cookie);
    const link = await createLink(alice.cookie, profile.id);
    const refused = await call("DELETE", `/profiles/${profile.id}`, alice.cookie);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).error).toBe("ConflictException");
    expect((await call("DELETE", `/links/${link.id}`, alice.cookie)).statusCode).toBe(200);
    expect((await call("DELETE", `/profiles/${profile.id}`, alice.cookie)).statusCode).toBe(200);
  });
});

describe("links", () => {
  let profile: CreatorProfile;
  beforeAll(async () => {
    profile = await createProfile(alice.cookie);
  });

  it("creates a link with an unguessable token and zero sales", async () => {
    const link = await createLink(alice.cookie, profile.id, { description: "Ten photos", stockLimit: 5 });
    expect(link).toMatchObject({
      status: "active",
      salesCount: 0,
      stockLimit: 5,
      fileId: null,
      priceMinor: 1500,
    });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const other = await createLink(alice.cookie, profile.id);
    expect(other.token).not.toBe(link.token);
    expect((await call("GET", `/links/${link.id}`, alice.cookie)).json<Link>()).toEqual(link);
  });

  it.each([
    [{ title: "" }, "title"],
    [{ title: "t".repeat(121) }, "title"],
    [{ description: "d".repeat(5001) }, "description"],
    [{ priceMinor: 12.5 }, "priceMinor"],
    [{ priceMinor: -100 }, "priceMinor"],
    [{ priceMinor: "1500" }, "priceMinor"],
    [{ currency: "JPY" }, "currency"],
    [{ stockLimit: 0 }, "stockLimit"],
    [{ fileId: "x" }, "fileId"],
    [{ profileId: "x" }, "profileId"],
  ])("refuses %j with a field error on %s", async (extra, field) => {
    const res = await call("POST", "/links", alice.cookie, {
      profileId: profile.id,
      title: "T",
      priceMinor: 1500,
      currency: "EUR",
      ...extra,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).errors ?? {})).toContain(field);
  });

  it("keeps prices within the configured range, in every currency", async () => {
    const { linkPriceMinMinor: min, linkPriceMaxMinor: max } = ctx.config.rules;
    for (const currency of ["EUR", "USD", "GBP"]) {
      await createLink(alice.cookie, profile.id, { priceMinor: min, currency });
      await createLink(alice.cookie, profile.id, { priceMinor: max, currency });
    }
    for (const priceMinor of [min - 1, max + 1]) {
      const res = await call("POST", "/links", alice.cookie, {
        profileId: profile.id,
        title: "T",
        priceMinor,
        currency: "USD",
      });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).errors?.priceMinor?.[0]).toBe(
        `The price must be between ${(min / 100).toFixed(2)} and ${(max / 100).toFixed(2)}.`,
      );
    }
    const link = await createLink(alice.cookie, profile.id);
    const patch = await call("PATCH", `/links/${link.id}`, alice.cookie, { priceMinor: max + 1 });
    expect(Object.keys(errorOf(patch).errors ?? {})).toEqual(["priceMinor"]);
  });

  it("attaches only my profile and my file", async () => {
    const bobsProfile = await createProfile(bob.cookie);
    const bobsFile = await insertFile(bob.id);
    const base = { title: "T", priceMinor: 1500, currency: "EUR" };
    expect(
      (await call("POST", "/links", alice.cookie, { ...base, profileId: bobsProfile.id })).statusCode,
    ).toBe(404);
    expect(
      (await call("POST", "/links", alice.cookie, { ...base, profileId: profile.id, fileId: bobsFile.id }))
        .statusCode,
    ).toBe(404);
    const link = await createLink(alice.cookie, profile.id);
    expect((await call("PATCH", `/links/${link.id}`, alice.cookie, { fileId: bobsFile.id })).statusCode).toBe(
      404,
    );
    expect(
      (await call("PATCH", `/links/${link.id}`, alice.cookie, { profileId: bobsProfile.id })).statusCode,
    ).toBe(404);
    const mine = await insertFile(alice.id);
    const ok = await call("PATCH", `/links/${link.id}`, alice.cookie, { fileId: mine.id, title: "Renamed" });
    expect(ok.json<Link>()).toMatchObject({ fileId: mine.id, title: "Renamed" });
  });

  it("hides my links from another account (404)", async () => {
    const link = await createLink(alice.cookie, profile.id);
    expect((await call("GET", `/links/${link.id}`, bob.cookie)).statusCode).toBe(404);
    expect((await call("PATCH", `/links/${link.id}`, bob.cookie, { title: "x" })).statusCode).toBe(404);
    expect((await call("DELETE", `/links/${link.id}`, bob.cookie)).statusCode).toBe(404);
    expect((await call("POST", `/links/${link.id}/pause`, bob.cookie)).statusCode).toBe(404);
    const list = (await call("GET", "/links?limit=100", bob.cookie)).json<LinkListResponse>();
    expect(list.items.map((l) => l.id)).not.toContain(link.id);
    expect((await call("GET", `/links/${link.id}`, alice.cookie)).json<Link>().title).toBe("Sunset pack");
  });

  it("lists my links newest first, page by page", async () => {
    const carol = await account();
    const p = await createProfile(carol.cookie);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createLink(carol.cookie, p.id, { title: `L${i}` })).id);
    const seen: string[] = [];
    let url = "/links?limit=2";
    for (;;) {
      const page = (await call("GET", url, carol.cookie)).json<LinkListResponse>();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((l) => l.id));
      if (!page.nextCursor) break;
      url = `/links?limit=2&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual([...made].reverse());
    const bad = await call("GET", "/links?limit=0", carol.cookie);
    expect(Object.keys(errorOf(bad).errors ?? {})).toContain("limit");
    expect((await call("GET", "/links?cursor=abc", carol.cookie)).statusCode).toBe(400);
    expect((await call("GET", "/links?limit=101", carol.cookie)).statusCode).toBe(400);
  });

  it("pauses and resumes; 'removed' is not the creator's to set or undo", async () => {
    const link = await createLink(alice.cookie, profile.id);
    expect((await call("POST", `/links/${link.id}/pause`, alice.cookie)).json<Link>().status).toBe("paused");
    expect((await call("POST", `/links/${link.id}/resume`, alice.cookie)).json<Link>().status).toBe("active");
    const set = await call("PATCH", `/links/${link.id}`, alice.cookie, { status: "removed" });
    expect(Object.keys(errorOf(set).errors ?? {})).toEqual(["status"]);
    // Moderation removes it (no route yet: straight in the database).
    await ctx.database.db.update(links).set({ status: "removed" }).where(eq(links.id, link.id));
    for (const req of [
      call("POST", `/links/${link.id}/resume`, alice.cookie),
      call("POST", `/links/${link.id}/pause`, alice.cookie),
      call("PATCH", `/links/${link.id}`, alice.cookie, { status: "active" }),
    ]) {
      const res = await req;
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).error).toBe("ConflictException");
    }
    expect((await call("GET", `/links/${link.id}`, alice.cookie)).json<Link>().status).toBe("removed");
  });

  it("erases a link without sales and archives one with sales", async () => {
    const unsold = await createLink(alice.cookie, profile.id);
    const sold = await createLink(alice.cookie, profile.id);
    await ctx.database.db.update(links).set({ salesCount: 3 }).where(eq(links.id, sold.id));
    expect((await call("DELETE", `/links/${unsold.id}`, alice.cookie)).statusCode).toBe(200);
    expect((await call("DELETE", `/links/${sold.id}`, alice.cookie)).statusCode).toBe(200);
    const rows = await ctx.database.db.select({ id: links.id, deletedAt: links.deletedAt }).from(links);
    expect(rows.find((r) => r.id === unsold.id)).toBeUndefined();
    expect(rows.find((r) => r.id === sold.id)?.deletedAt).toBeInstanceOf(Date);
    expect((await call("GET", `/links/${sold.id}`, alice.cookie)).statusCode).toBe(404);
    expect((await call("DELETE", `/links/${sold.id}`, alice.cookie)).statusCode).toBe(404);
    expect((await call("GET", `/public/links/${sold.token}`)).statusCode).toBe(404);
  });
});

describe("public link read", () => {
  it("shows public fields only, with the cache header", async () => {
    const [avatarKey, previewKey, coverKey] = [
      `covers/${randomUUID()}`,
      `previews/${randomUUID()}`,
      `covers/${randomUUID()}`,
    ];
    const avatar = await insertFile(alice.id, { coverKey: avatarKey });
    const paid = await insertFile(alice.id, { previewKey });
    const cover = await insertFile(alice.id, { coverKey });
    const profile = await createProfile(alice.cookie, { avatarFileId: avatar.id, displayName: "Ada" });
    const link = await createLink(alice.cookie, profile.id, {
      fileId: paid.id,
      coverFileId: cover.id,
      description: "Ten photos",
      stockLimit: 3,
    });
    const res = await call("GET", `/public/links/${link.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=30, stale-while-revalidate=300");
    const body = res.json<PublicLink>();
    expect(body).toEqual({
      token: link.token,
      title: "Sunset pack",
      description: "Ten photos",
      priceMinor: 1500,
      currency: "EUR",
      status: "active",
      previewUrl: `/media/${previewKey}`,
      coverUrl: `/media/${coverKey}`,
      fileKind: "image",
      soldOut: false,
      reservedOut: false,
      availableAgainAt: null,
      refundWindowDays: 30,
      pricesIncludeVat: true,
      creator: {
        id: profile.id,
        displayName: "Ada",
        handle: profile.handle,
        avatarUrl: `/media/${avatarKey}`,
      },
    });
    expect(res.body).not.toContain(alice.id);
    expect(res.body).not.toContain(paid.storageKey);
    expect(res.body).not.toContain(paid.id);
    expect(res.body).not.toContain(link.id);
  });

  it("answers 404 for paused, removed, unknown and malformed tokens", async () => {
    const profile = await createProfile(alice.cookie);
    const paused = await createLink(alice.cookie, profile.id);
    await call("POST", `/links/${paused.id}/pause`, alice.cookie);
    const removed = await createLink(alice.cookie, profile.id);
    await ctx.database.db.update(links).set({ status: "removed" }).where(eq(links.id, removed.id));
    for (const token of [
      paused.token,
      removed.token,
      "A".repeat(22),
      "short",
      "bad token!!!!!!!!!!!!!!!",
      "x".repeat(90),
    ]) {
      const res = await call("GET", `/public/links/${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(404);
      expect(errorOf(res).error).toBe("NotFoundException");
      expect(res.headers["cache-control"]).toBe("public, max-age=30, stale-while-revalidate=300");
    }
    await call("POST", `/links/${paused.id}/resume`, alice.cookie);
    expect((await call("GET", `/public/links/${paused.token}`)).statusCode).toBe(200);
  });
});

describe("portfolio and creator page", () => {
  it("shows my chosen active links in my order, by id or handle", async () => {
    const profile = await createProfile(alice.cookie, { bio: "Hi", socialLinks: ["https://example.com/a"] });
    const [a, b, c] = [
      await createLink(alice.cookie, profile.id, { title: "A" }),
      await createLink(alice.cookie, profile.id, { title: "B" }),
      await createLink(alice.cookie, profile.id, { title: "C" }),
    ] as [Link, Link, Link];
    const put = await call("PUT", `/profiles/${profile.id}/portfolio`, alice.cookie, {
      linkIds: [c.id, a.id],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<{ linkIds: string[] }>().linkIds).toEqual([c.id, a.id]);
    const page = (await call("GET", `/creators/${profile.handle}`)).json<CreatorPage>();
    expect(page.links.map((l) => l.title)).toEqual(["C", "A"]);
    expect(page.profile).toEqual({
      id: profile.id,
      displayName: "Ada",
      handle: profile.handle,
      avatarUrl: null,
      bio: "Hi",
      socialLinks: ["https://example.com/a"],
    });
    const byId = await call("GET", `/creators/${profile.id}`);
    expect(byId.headers["cache-control"]).toBe("public, max-age=30, stale-while-revalidate=300");
    expect(byId.json<CreatorPage>().links.map((l) => l.title)).toEqual(["C", "A"]);
    expect(byId.body).not.toContain(alice.id);

    // Reordering replaces the list.
    await call("PUT", `/profiles/${profile.id}/portfolio`, alice.cookie, { linkIds: [b.id, a.id, c.id] });
    expect(
      (await call("GET", `/creators/${profile.id}`)).json<CreatorPage>().links.map((l) => l.title),
    ).toEqual(["B", "A", "C"]);
    // A link paused later drops out of the public page.
    await call("POST", `/links/${a.id}/pause`, alice.cookie);
    expect(
      (await call("GET", `/creators/${profile.id}`)).json<CreatorPage>().links.map((l) => l.title),
    ).toEqual(["B", "C"]);
    expect((await call("GET", "/creators/nobody_here")).statusCode).toBe(404);
  });

  it("accepts only my active links of that profile", async () => {
    const profile = await createProfile(alice.cookie);
    const otherProfile = await createProfile(alice.cookie);
    const mine = await createLink(alice.cookie, profile.id);
    const elsewhere = await createLink(alice.cookie, otherProfile.id);
    const paused = await createLink(alice.cookie, profile.id);
    await call("POST", `/links/${paused.id}/pause`, alice.cookie);
    const bobs = await createLink(bob.cookie, (await createProfile(bob.cookie)).id);
    const url = `/profiles/${profile.id}/portfolio`;
    expect((await call("PUT", url, alice.cookie, { linkIds: [mine.id, bobs.id] })).statusCode).toBe(404);
    const wrong = await call("PUT", url, alice.cookie, { linkIds: [mine.id, elsewhere.id, paused.id] });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(errorOf(wrong).errors ?? {}).sort()).toEqual(["linkIds.1", "linkIds.2"]);
    const dup = await call("PUT", url, alice.cookie, { linkIds: [mine.id, mine.id] });
    expect(Object.keys(errorOf(dup).errors ?? {})).toEqual(["linkIds"]);
    const french = await ctx.app.inject({
      method: "PUT",
      url,
      headers: { cookie: alice.cookie, "accept-language": "fr" },
      payload: { linkIds: [mine.id, mine.id] },
    });
    expect(errorOf(french).errors?.linkIds).toEqual(["Un lien ne peut figurer qu'une fois."]);
    // Refused saves change nothing: the links stay as they were created, on the page by default.
    expect((await call("GET", url, alice.cookie)).json<{ linkIds: string[] }>().linkIds).toEqual([
      mine.id,
      paused.id,
    ]);
  });

  it("puts a new link on its creator page by default; the portfolio orders and hides it", async () => {
    const profile = await createProfile(alice.cookie);
    const first = await createLink(alice.cookie, profile.id, { title: "First" });
    const titles = async () =>
      (await call("GET", `/creators/${profile.id}`)).json<CreatorPage>().links.map((l) => l.title);
    expect(await titles()).toEqual(["First"]);
    // "Sold by" on the link's page leads to a creator page that lists the link.
    const sold = (await call("GET", `/public/links/${first.token}`)).json<PublicLink>();
    const page = (await call("GET", `/creators/${sold.creator.id}`)).json<CreatorPage>();
    expect(page.links.map((l) => l.token)).toEqual([first.token]);

    // Hidden in the portfolio, it stays hidden; a link created afterwards is added last.
    await call("PUT", `/profiles/${profile.id}/portfolio`, alice.cookie, { linkIds: [] });
    const second = await createLink(alice.cookie, profile.id, { title: "Second" });
    expect(await titles()).toEqual(["Second"]);
    await call("PUT", `/profiles/${profile.id}/portfolio`, alice.cookie, { linkIds: [second.id, first.id] });
    const third = await createLink(alice.cookie, profile.id, { title: "Third" });
    expect(await titles()).toEqual(["Second", "First", "Third"]);

    // Moved to another profile, a link leaves the old page and is on the new one.
    const other = await createProfile(alice.cookie);
    expect(
      (await call("PATCH", `/links/${third.id}`, alice.cookie, { profileId: other.id })).statusCode,
    ).toBe(200);
    expect(await titles()).toEqual(["Second", "First"]);
    expect(
      (await call("GET", `/creators/${other.id}`)).json<CreatorPage>().links.map((l) => l.title),
    ).toEqual(["Third"]);
  });
});
