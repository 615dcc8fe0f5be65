import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiAs, expect, signInAs, test, watchConsole } from "../fixtures.ts";
import { apiUrl, scriptsOrigin } from "../playwright.config.ts";

/*
 * The Content-Security-Policy of decision 015: computed by the web app's server (server/main.ts,
 * decision 017) from the run-time settings, the same on every page, allowing what the app loads (the
 * API, the configured scripts) and nothing else.
 */

const api = new URL(apiUrl).origin;
const expected: Record<string, string[]> = {
  "default-src": ["'self'"],
  "script-src": ["'self'", "'unsafe-inline'", scriptsOrigin],
  "style-src": ["'self'", "'unsafe-inline'", scriptsOrigin],
  "img-src": ["'self'", "data:", "blob:", api, scriptsOrigin],
  "media-src": ["'self'", "blob:", api],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'", api, scriptsOrigin],
  "frame-src": ["'self'", scriptsOrigin],
  "worker-src": ["'self'", "blob:"],
  "manifest-src": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'self'"],
  "object-src": ["'none'"],
};

function parsePolicy(header: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? "").split(";").flatMap((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return name ? [[name, sources]] : [];
    }),
  );
}

const photo = readFileSync(path.resolve(import.meta.dirname, "../../apps/api/test/fixtures/files/photo.png"));

async function created<T>(res: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/** A creator's profile and a link with a cover image served by the API (what img-src must allow). */
async function seedLink(): Promise<{ profileId: string; token: string }> {
  const creator = await apiAs("creator");
  try {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const profile = await created<{ id: string }>(
      await creator.post("/profiles", { data: { displayName: "CSP Shop", handle: `csp_${suffix}` } }),
    );
    const cover = await created<{ id: string }>(
      await creator.post("/upload?use=cover", {
        multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: photo } },
      }),
    );
    const link = await created<{ token: string }>(
      await creator.post("/links", {
        data: {
          profileId: profile.id,
          title: `CSP pack ${suffix}`,
          priceMinor: 900,
          currency: "EUR",
          coverFileId: cover.id,
        },
      }),
    );
    return { profileId: profile.id, token: link.token };
  } finally {
    await creator.dispose();
  }
}

/** Records every CSP violation of the page's documents from their first script on. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as typeof window & { __violations?: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations?.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as typeof window & { __violations?: string[] }).__violations ?? []);

test.describe("content security policy", () => {
  let seeded: { profileId: string; token: string };
  test.beforeAll(async () => {
    seeded = await seedLink();
  });

  test("every kind of page sends the same full policy", async ({ request }) => {
    const paths = [
      "/",
      "/blog",
      "/blog/how-affiliate-attribution-works",
      "/legal/privacy",
      "/signin",
      "/account/wallet",
      "/admin",
      `/v/${seeded.token}`,
      `/c/${seeded.profileId}`,
      `/checkout/${seeded.token}`,
      "/v/unknown-token-0000000000000",
      "/no-such-page",
    ];
    for (const path of paths) {
      const res = await request.get(path, { maxRedirects: 0 });
      const policy = parsePolicy(res.headers()["content-security-policy"]);
      expect(policy, path).toEqual(expected);
    }
    // Crawlers' bare 404 answers (proxy.ts) and the built assets carry it too.
    const bot = await request.get("/no-such-page", { headers: { "user-agent": "curl/8.4.0" } });
    expect(bot.status()).toBe(404);
    expect(parsePolicy(bot.headers()["content-security-policy"])).toEqual(expected);
    const asset = (await (await request.get("/")).text()).match(/\/_next\/static\/[^"]+\.js/)?.[0] ?? "";
    expect(asset).not.toBe("");
    for (const path of [asset, "/env.json"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expect(parsePolicy(res.headers()["content-security-policy"]), path).toEqual(expected);
    }
  });

  test("the app's own pages break none of it", async ({ page, consoleErrors: _ }) => {
    await recordViolations(page);
    await page.route("**/__analytics.js*", (route) =>
      route.fulfill({ contentType: "application/javascript", body: "window.__analyticsRan = true;" }),
    );
    await page.goto(`/v/${seeded.token}`);
    // The cover comes from the API's origin.
    await expect(page.locator("img[src*='/media/']").first()).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() => (document.querySelector("img[src*='/media/']") as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    // Accepting analytics loads the configured tag from its own origin.
    await page
      .getByRole("dialog", { name: "Cookie consent" })
      .getByRole("button", { name: "Accept" })
      .click();
    await expect.poll(() => page.evaluate(() => "__analyticsRan" in window)).toBe(true);
    expect(await violations(page)).toEqual([]);
    for (const path of [
      `/c/${seeded.profileId}`,
      `/checkout/${seeded.token}`,
      "/blog/how-affiliate-attribution-works",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await violations(page), path).toEqual([]);
    }
    await signInAs(page, "creator");
    for (const path of ["/account/links", "/account/wallet", "/account/settings"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await violations(page), path).toEqual([]);
    }
  });

  test("Chromium refuses scripts, fetches, images and eval the policy does not allow", async ({ page }) => {
    const errors = watchConsole(page);
    await recordViolations(page);
    await page.goto("/");
    // The same stub server, under a name the policy does not list.
    const foreign = scriptsOrigin.replace("127.0.0.1", "localhost");
    await expect(page.addScriptTag({ url: `${foreign}/__chat-widget.js` })).rejects.toThrow();
    const fetched = await page.evaluate(
      (url) =>
        fetch(url).then(
          () => "loaded",
          () => "refused",
        ),
      `${foreign}/__analytics.js`,
    );
    expect(fetched).toBe("refused");
    const image = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const img = new Image();
          img.onload = () => resolve("loaded");
          img.onerror = () => resolve("refused");
          img.src = url;
        }),
      `${foreign}/pixel.gif`,
    );
    expect(image).toBe("refused");
    // Code Playwright evaluates is exempt from the policy: the allowed chat widget's script tries eval.
    const widget = await page.context().newPage();
    await recordViolations(widget);
    await widget.route(`${scriptsOrigin}/__chat-widget.js`, (route) =>
      route.fulfill({
        contentType: "application/javascript",
        body: "try { window.__evaluated = String(new Function('return 7 * 6')()); } catch (e) { window.__evaluated = e.name; }",
      }),
    );
    await widget.goto("/");
    await expect
      .poll(() => widget.evaluate(() => (window as { __evaluated?: string }).__evaluated))
      .toBe("EvalError");
    expect(await violations(widget)).toEqual([expect.stringMatching(/^script-src eval /)]);
    await widget.close();
    await expect
      .poll(async () => (await violations(page)).map((v) => v.replace(/ \(.*\)$/, "")).sort())
      .toEqual(
        [
          `script-src-elem ${foreign}/__chat-widget.js`,
          `connect-src ${foreign}/__analytics.js`,
          `img-src ${foreign}/pixel.gif`,
        ].sort(),
      );
    // Each refusal is reported on the console, and nothing else is.
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const error of errors) expect(error).toMatch(/Content Security Policy/);
  });
});
