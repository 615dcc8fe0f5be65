import { randomBytes } from "node:crypto";
import {
  type CreatorPage,
  type CreatorProfile,
  type Link,
  type PublicLink,
  REFUND_WINDOW_DEFAULT_DAYS,
  REFUND_WINDOW_MAX_DAYS,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { links } from "../../src/db/schema/index.ts";
import { accountWithSession, errorOf } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

/* A link's refund window (issue 21): set by its creator, 0 to 60 days, shown to buyers. */

let ctx: TestContext;
let alice: { id: string; cookie: string };
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

async function storedWindow(id: string) {
  const [row] = await ctx.database.db
    .select({ days: links.refundWindowDays })
    .from(links)
    .where(eq(links.id, id));
  return row?.days;
}

beforeAll(async () => {
  ctx = await testApp();
  alice = await accountWithSession(ctx.database, { onboarded: true });
  const res = await call("POST", "/profiles", alice.cookie, {
    displayName: "Ada",
    handle: `h_${randomBytes(5).toString("hex")}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  profile = res.json<CreatorProfile>();
});
afterAll(() => ctx.close());

describe("a link's refund window", () => {
  it("is 30 days when the creator does not say", async () => {
    const link = await createLink();
    expect(link.refundWindowDays).toBe(REFUND_WINDOW_DEFAULT_DAYS);
    expect(await storedWindow(link.id)).toBe(30);
  });

  it.each([0, 14, REFUND_WINDOW_MAX_DAYS])("is stored as given (%i days)", async (days) => {
    const link = await createLink({ refundWindowDays: days });
    expect(link.refundWindowDays).toBe(days);
    expect((await call("GET", `/links/${link.id}`, alice.cookie)).json<Link>().refundWindowDays).toBe(days);
    expect(await storedWindow(link.id)).toBe(days);
  });

  it.each([61, -1, 7.5, "30", null])("refuses %j on create and update with a field error", async (days) => {
    const created = await call("POST", "/links", alice.cookie, linkBody({ refundWindowDays: days }));
    expect(created.statusCode).toBe(400);
    expect(Object.keys(errorOf(created).errors ?? {})).toEqual(["refundWindowDays"]);
    const link = await createLink({ refundWindowDays: 10 });
    const patched = await call("PATCH", `/links/${link.id}`, alice.cookie, { refundWindowDays: days });
    expect(patched.statusCode).toBe(400);
    expect(Object.keys(errorOf(patched).errors ?? {})).toEqual(["refundWindowDays"]);
    expect(await storedWindow(link.id)).toBe(10);
  });

  it("is changed by an update, alone or with other fields, and kept by other updates", async () => {
    const link = await createLink();
    const patched = await call("PATCH", `/links/${link.id}`, alice.cookie, { refundWindowDays: 0 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<Link>().refundWindowDays).toBe(0);
    const renamed = await call("PATCH", `/links/${link.id}`, alice.cookie, { title: "Dawn pack" });
    expect(renamed.json<Link>()).toMatchObject({ title: "Dawn pack", refundWindowDays: 0 });
    const both = await call("PATCH", `/links/${link.id}`, alice.cookie, {
      refundWindowDays: 45,
      priceMinor: 900,
    });
    expect(both.json<Link>()).toMatchObject({ refundWindowDays: 45, priceMinor: 900 });
    expect(await storedWindow(link.id)).toBe(45);
  });

  it("is shown to buyers on the link's page and the creator page, fresh after an edit", async () => {
    const link = await createLink({ refundWindowDays: 7 });
    const shown = async () =>
      (await call("GET", `/public/links/${link.token}`)).json<PublicLink>().refundWindowDays;
    expect(await shown()).toBe(7);
    await call("PATCH", `/links/${link.id}`, alice.cookie, { refundWindowDays: 0 });
    // The edit forgets the cached page at once on this instance.
    expect(await shown()).toBe(0);
    const page = (await call("GET", `/creators/${profile.id}`)).json<CreatorPage>();
    expect(page.links.find((l) => l.token === link.token)?.refundWindowDays).toBe(0);
  });
});
