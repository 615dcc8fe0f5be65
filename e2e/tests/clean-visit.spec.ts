import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures.ts";

/** Seeded by the API's demo data. */
const DEMO_LINK = "DemoGoldenHourPack0001";

/**
 * Everything a page reports as wrong: console errors of any kind (the shared fixture lets failed
 * requests through; this test does not) and answers of 400 or more, including the API's.
 */
function watchEverything(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  page.on("requestfailed", (req) => {
    // Cancelled by the page itself (Next.js drops a prefetch it no longer needs): not a failure.
    if (req.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`failed ${req.method()} ${req.url()}: ${req.failure()?.errorText}`);
  });
  return problems;
}

test.describe("a visitor's first visit", () => {
  for (const path of ["/", `/v/${DEMO_LINK}`, "/blog", "/signin"]) {
    test(`${path} logs no error and fails no request, the session check included`, async ({ browser }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems = watchEverything(page);
      // The anonymous session check happens on every page: it must be there to be judged.
      const profileCheck = page.waitForResponse((res) => new URL(res.url()).pathname === "/profile");
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      const profile = await profileCheck;
      expect(profile.status()).toBe(200);
      expect(await profile.json()).toBeNull();
      await page.waitForLoadState("networkidle");
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("/favicon.ico exists", async ({ request }) => {
    const res = await request.get("/favicon.ico");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO file: reserved 0, type 1, at least one image.
    const bytes = await res.body();
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });
});
