import { expect, test } from "../fixtures.ts";

/** Every kind of page answers with the browser security headers, the 404 page included. */
const paths = [
  "/",
  "/blog",
  "/signin",
  "/account/wallet",
  "/admin",
  "/v/unknown-token-0000000000000",
  "/no-such-page",
];

test.describe("security headers", () => {
  for (const path of paths) {
    test(`${path} is sent with them`, async ({ request }) => {
      const res = await request.get(path, { maxRedirects: 0 });
      const headers = res.headers();
      expect(headers["strict-transport-security"]).toContain("max-age=");
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(headers["x-powered-by"]).toBeUndefined();
    });
  }

  test("a page cannot be framed by another site", async ({ page }) => {
    await page.setContent(
      `<iframe id="f" src="${new URL("/", test.info().project.use.baseURL).href}"></iframe>`,
    );
    const frame = page.frame({ url: /localhost/ });
    // Chromium blocks the document: the frame stays empty (about:blank or an error page, never ours).
    await page.waitForTimeout(1500);
    const title = frame ? await frame.title().catch(() => "") : "";
    expect(title).not.toContain("Salelink");
  });
});
