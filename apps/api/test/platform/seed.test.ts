import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CreatorPage, PublicLink, QuoteResponse } from "@salelink/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import demo from "../../src/demo-accounts.json" with { type: "json" };
import { seedDemo } from "../../src/seed.ts";
import { seedDemoCatalogue } from "../../src/seed-catalogue.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
let uploadsDir: string;

beforeAll(async () => {
  uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-seed-test-"));
  ctx = await testApp({ UPLOADS_DIR: uploadsDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

describe("demo data", () => {
  it("gives the demo creator a profile, links on sale with their files, a promo code and a portfolio, once", async () => {
    const seed = async () => {
      await seedDemo(ctx.database.db, ctx.app.log);
      await seedDemoCatalogue(ctx.database.db, ctx.app.services.storage, ctx.app.log);
    };
    await seed();
    await seed();

    const [photo, guide] = demo.catalogue.links;
    const link = (await ctx.app.inject({ url: `/public/links/${photo?.token}` })).json<PublicLink>();
    expect(link).toMatchObject({ title: photo?.title, priceMinor: 1500, fileKind: "image", soldOut: false });
    for (const url of [link.previewUrl, link.coverUrl]) {
      expect((await ctx.app.inject({ url: url ?? "/none" })).statusCode).toBe(200);
    }
    const pdf = (await ctx.app.inject({ url: `/public/links/${guide?.token}` })).json<PublicLink>();
    expect(pdf).toMatchObject({ fileKind: "pdf", previewUrl: null });

    const page = (
      await ctx.app.inject({ url: `/creators/${demo.catalogue.profile.handle}` })
    ).json<CreatorPage>();
    expect(page.links.map((l) => l.token)).toEqual([photo?.token, guide?.token]);

    const quote = await ctx.app.inject({
      method: "POST",
      url: `/public/links/${photo?.token}/quote`,
      payload: { promoCode: demo.catalogue.promoCode.code },
    });
    expect(quote.json<QuoteResponse>()).toMatchObject({ price: 1500, discount: 300, total: 1200 });
  });
});
