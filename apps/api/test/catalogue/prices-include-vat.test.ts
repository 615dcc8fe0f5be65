import { randomBytes } from "node:crypto";
import type { CreatorPage, CreatorProfile, Link, PublicLink } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { links } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

/* Whether a link's price includes VAT (issue 22): the creator's choice, included by default, shown to buyers. */

let ctx: TestContext;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };
let profile: CreatorProfile;

function call(method: "GET" | "POST" | "PATCH", url: string, cookie?: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });
}

const linkBody = (extra: object = {}) => ({
  profileId: profile.id,
  title: "Sunset pack",
  priceMinor: 1500,
  currency: "EUR",
  ...extra,
});

async function createLink(extra: object = {}): Promise<Link> {
  const res = await call("POST", "/links", alice.cookie, linkBody(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Link>();
}

async function stored(id: string) {
  const [row] = await ctx.database.db
    .select({ inclusive: links.pricesIncludeVat })
    .from(links)
    .where(eq(links.id, id));
  return row?.inclusive;
}

beforeAll(async () => {
  ctx = await testApp();
  alice = await accountWithSession(ctx.database, { onboarded: true });
  bob = await accountWithSession(ctx.database, { onboarded: true });
  const res = await call("POST", "/profiles", alice.cookie, {
    displayName: "Ada",
    handle: `h_${randomBytes(5).toString("hex")}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  profile = res.json<CreatorProfile>();
});
afterAll(() => ctx.close());

describe("a link's prices include VAT or not", () => {
  it("include it when the creator does not say", async () => {
    const link = await createLink();
    expect(link.pricesIncludeVat).toBe(true);
    expect(await stored(link.id)).toBe(true);
  });

  it.each([true, false])("are stored as chosen (%s)", async (inclusive) => {
    const link = await createLink({ pricesIncludeVat: inclusive });
    expect(link.pricesIncludeVat).toBe(inclusive);
    expect((await call("GET", `/links/${link.id}`, alice.cookie)).json<Link>().pricesIncludeVat).toBe(
      inclusive,
    );
    expect(await stored(link.id)).toBe(inclusive);
  });

  it.each(["true", 1, null, "yes"])("refuse %j on create and update with a field error", async (value) => {
    const created = await call("POST", "/links", alice.cookie, linkBody({ pricesIncludeVat: value }));
    expect(created.statusCode).toBe(400);
    expect(Object.keys(errorOf(created).errors ?? {})).toEqual(["pricesIncludeVat"]);
    const link = await createLink({ pricesIncludeVat: false });
    const patched = await call("PATCH", `/links/${link.id}`, alice.cookie, { pricesIncludeVat: value });
    expect(patched.statusCode).toBe(400);
    expect(Object.keys(errorOf(patched).errors ?? {})).toEqual(["pricesIncludeVat"]);
    expect(await stored(link.id)).toBe(false);
  });

  it("change with an update, alone or with other fields, and stay through other updates", async () => {
    const link = await createLink();
    const patched = await call("PATCH", `/links/${link.id}`, alice.cookie, { pricesIncludeVat: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<Link>().pricesIncludeVat).toBe(false);
    const renamed = await call("PATCH", `/links/${link.id}`, alice.cookie, { title: "Dawn pack" });
    expect(renamed.json<Link>()).toMatchObject({ title: "Dawn pack", pricesIncludeVat: false });
    const both = await call("PATCH", `/links/${link.id}`, alice.cookie, {
      pricesIncludeVat: true,
      priceMinor: 900,
    });
    expect(both.json<Link>()).toMatchObject({ pricesIncludeVat: true, priceMinor: 900 });
    expect(await stored(link.id)).toBe(true);
  });

  it("are the owner's alone to change", async () => {
    const link = await createLink();
    const res = await call("PATCH", `/links/${link.id}`, bob.cookie, { pricesIncludeVat: false });
    expect(res.statusCode).toBe(404);
    expect(await stored(link.id)).toBe(true);
  });

  it("are shown to buyers on the link's page and the creator page, fresh after an edit", async () => {
    const link = await createLink({ pricesIncludeVat: false });
    const shown = async () =>
      (await call("GET", `/public/links/${link.token}`)).json<PublicLink>().pricesIncludeVat;
    expect(await shown()).toBe(false);
    await call("PATCH", `/links/${link.id}`, alice.cookie, { pricesIncludeVat: true });
    // The edit forgets the cached page at once on this instance.
    expect(await shown()).toBe(true);
    const page = (await call("GET", `/creators/${profile.id}`)).json<CreatorPage>();
    expect(page.links.find((l) => l.token === link.token)?.pricesIncludeVat).toBe(true);
  });
});
