import {
  type Link,
  PARTNER_DEFAULT_RATE_BPS,
  PARTNER_DEFAULT_WINDOW_DAYS,
  PARTNER_LINK_RATES_MAX,
  type PartnerProgramme,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { links, partnerLinkRates, partnerProgrammes } from "../../src/db/schema/index.ts";
import { errorOf } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { caller, type Someone, saveProgramme, shop, someone } from "./support.ts";

let ctx: TestContext;
let call: ReturnType<typeof caller>;
let ada: Someone;
let bob: Someone;
let adasLink: Link;
let adasOtherLink: Link;
let bobsLink: Link;

beforeAll(async () => {
  ctx = await testApp();
  call = caller(ctx);
  [ada, bob] = await Promise.all([someone(ctx), someone(ctx)]);
  adasLink = (await shop(ctx, ada.cookie)).link;
  adasOtherLink = (await shop(ctx, ada.cookie)).link;
  bobsLink = (await shop(ctx, bob.cookie)).link;
});
afterAll(() => ctx.close());

const valid = { enabled: true, defaultRateBps: 1200, windowDays: 45, joinMode: "open" };

describe(`a creator's partner programme settings (${dbKind})`, () => {
  it("answers the defaults while never saved, and needs a session", async () => {
    const fresh = await someone(ctx);
    const res = await call("GET", "/partner-programme", fresh.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PartnerProgramme>()).toEqual({
      enabled: false,
      defaultRateBps: PARTNER_DEFAULT_RATE_BPS,
      windowDays: PARTNER_DEFAULT_WINDOW_DAYS,
      joinMode: "approval",
      description: "",
      terms: "",
      linkRates: [],
      updatedAt: null,
    });
    expect((await call("GET", "/partner-programme")).statusCode).toBe(401);
    expect((await call("PUT", "/partner-programme", undefined, valid)).statusCode).toBe(401);
  });

  it("saves the settings and per-link rates, and a later save replaces them", async () => {
    const saved = await saveProgramme(ctx, ada.cookie, {
      ...valid,
      joinMode: "open",
      description: "  Share my photo packs.  ",
      terms: "No paid ads on my name.",
      linkRates: [
        { linkId: adasOtherLink.id, rateBps: 3000 },
        { linkId: adasLink.id, rateBps: 2500 },
      ],
    });
    expect(saved).toMatchObject({
      enabled: true,
      defaultRateBps: 1200,
      windowDays: 45,
      joinMode: "open",
      description: "Share my photo packs.",
      terms: "No paid ads on my name.",
    });
    expect(saved.updatedAt).not.toBeNull();
    expect(saved.linkRates).toEqual(
      [
        { linkId: adasOtherLink.id, rateBps: 3000 },
        { linkId: adasLink.id, rateBps: 2500 },
      ].sort((a, b) => a.linkId.localeCompare(b.linkId)),
    );
    expect((await call("GET", "/partner-programme", ada.cookie)).json()).toEqual(saved);

    const again = await saveProgramme(ctx, ada.cookie, {
      ...valid,
      joinMode: "invitation",
      linkRates: [{ linkId: adasLink.id, rateBps: 100 }],
    });
    expect(again.joinMode).toBe("invitation");
    expect(again.description).toBe("");
    expect(again.linkRates).toEqual([{ linkId: adasLink.id, rateBps: 100 }]);
    // Bob's programme is his own: untouched by Ada's.
    expect(
      (await call("GET", "/partner-programme", bob.cookie)).json<PartnerProgramme>().updatedAt,
    ).toBeNull();
  });

  it.each([
    ["a rate under 1%", { defaultRateBps: 99 }, "defaultRateBps"],
    ["a rate over 90%", { defaultRateBps: 9001 }, "defaultRateBps"],
    ["a fractional rate", { defaultRateBps: 1000.5 }, "defaultRateBps"],
    ["a window of 0 days", { windowDays: 0 }, "windowDays"],
    ["a window over 365 days", { windowDays: 366 }, "windowDays"],
    ["an unknown joining mode", { joinMode: "anyone" }, "joinMode"],
    ["a description over 500 characters", { description: "x".repeat(501) }, "description"],
    ["terms over 5,000 characters", { terms: "x".repeat(5001) }, "terms"],
    ["a link rate out of range", { linkRates: [{ rateBps: 9500 }] }, "linkRates.0.rateBps"],
    [
      "too many link rates",
      { linkRates: Array.from({ length: PARTNER_LINK_RATES_MAX + 1 }, () => ({ rateBps: 500 })) },
      "linkRates",
    ],
  ] as const)("refuses %s with a field error", async (_label, change, field) => {
    // Rates on Bob's own link: only the range is wrong.
    const body =
      "linkRates" in change
        ? { ...valid, linkRates: change.linkRates.map((r) => ({ ...r, linkId: bobsLink.id })) }
        : { ...valid, ...change };
    const res = await call("PUT", "/partner-programme", bob.cookie, body);
    expect(res.statusCode, res.body).toBe(400);
    const error = errorOf(res);
    expect(error.error).toBe("ValidationException");
    expect(Object.keys(error.errors ?? {})).toContain(field);
  });

  it("answers field errors in the caller's language", async () => {
    const body = { ...valid, defaultRateBps: 50, windowDays: 400 };
    const en = errorOf(await call("PUT", "/partner-programme", bob.cookie, body));
    const fr = errorOf(
      await call("PUT", "/partner-programme", bob.cookie, body, { "accept-language": "fr" }),
    );
    const es = errorOf(
      await call("PUT", "/partner-programme", bob.cookie, body, { "accept-language": "es" }),
    );
    expect(fr.message).toBe("Certains champs ne sont pas valides.");
    expect(es.message).toBe("Algunos campos no son válidos.");
    for (const field of ["defaultRateBps", "windowDays"]) {
      expect(fr.errors?.[field]?.[0]).toBeTruthy();
      expect(fr.errors?.[field]?.[0]).not.toBe(en.errors?.[field]?.[0]);
      expect(es.errors?.[field]?.[0]).not.toBe(en.errors?.[field]?.[0]);
    }
    const twice = {
      ...valid,
      linkRates: [
        { linkId: bobsLink.id, rateBps: 500 },
        { linkId: bobsLink.id, rateBps: 600 },
      ],
    };
    const dup = errorOf(await call("PUT", "/partner-programme", bob.cookie, twice, { "x-locale": "es" }));
    expect(dup.errors?.linkRates).toEqual(["Cada enlace solo puede tener una comisión de socio."]);
  });

  it("refuses a link that is not the caller's own live link, on linkRates, and saves nothing", async () => {
    const before = (await call("GET", "/partner-programme", ada.cookie)).json<PartnerProgramme>();
    const deleted = (await shop(ctx, ada.cookie)).link;
    expect((await call("DELETE", `/links/${deleted.id}`, ada.cookie)).statusCode).toBe(200);
    const takenDown = (await shop(ctx, ada.cookie)).link;
    await ctx.database.db.update(links).set({ status: "removed" }).where(eq(links.id, takenDown.id));
    for (const linkId of [bobsLink.id, deleted.id, takenDown.id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await call(
        "PUT",
        "/partner-programme",
        ada.cookie,
        {
          ...valid,
          linkRates: [
            { linkId: adasLink.id, rateBps: 700 },
            { linkId, rateBps: 700 },
          ],
        },
        { "accept-language": "fr" },
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).errors).toEqual({
        linkRates: ["Seuls vos propres liens peuvent avoir un taux de partenaire."],
      });
    }
    // A paused link is still live: it may have its rate.
    expect((await call("POST", `/links/${adasOtherLink.id}/pause`, ada.cookie)).statusCode).toBe(200);
    const paused = await saveProgramme(ctx, ada.cookie, {
      ...before,
      linkRates: [{ linkId: adasOtherLink.id, rateBps: 800 }],
    });
    expect(paused.linkRates).toEqual([{ linkId: adasOtherLink.id, rateBps: 800 }]);
  });

  it("keeps the ranges in the database too (CHECK constraints)", async () => {
    const fresh = await someone(ctx);
    await expect(
      ctx.database.db.insert(partnerProgrammes).values({ creatorId: fresh.id, defaultRateBps: 9001 }),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.insert(partnerProgrammes).values({ creatorId: fresh.id, windowDays: 0 }),
    ).rejects.toThrow();
    await expect(
      ctx.database.db
        .insert(partnerLinkRates)
        .values({ creatorId: ada.id, linkId: adasLink.id, rateBps: 99 }),
    ).rejects.toThrow();
    await ctx.database.db.insert(partnerProgrammes).values({ creatorId: fresh.id });
    const [row] = await ctx.database.db
      .select()
      .from(partnerProgrammes)
      .where(eq(partnerProgrammes.creatorId, fresh.id));
    expect(row).toMatchObject({ enabled: false, defaultRateBps: 1000, windowDays: 30, joinMode: "approval" });
  });
});
