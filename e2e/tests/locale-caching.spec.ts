/**
 * Issue 17, item 8 (decision 023): a page's HTML depends on the visitor's language (the NEXT_LOCALE
 * cookie, else Accept-Language) under one URL, so a shared cache in front of the web app must never
 * hand one language's page to another. Each kind of page is fetched in two languages, and the
 * answers go through a shared cache's rules (http-cache-semantics, RFC 9111): either the answer is
 * not storable, or the stored French answer does not satisfy an English request without asking the
 * server again.
 */
import { type APIRequestContext, type APIResponse, request as apiRequest } from "@playwright/test";
import CachePolicy from "http-cache-semantics";
import { apiAs, expect, test, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

async function created<T>(res: APIResponse): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/** A creator's link, and a paid order of it (the order page's token). */
async function seed(): Promise<{ profileId: string; linkToken: string; orderToken: string }> {
  const creator = await apiAs("creator");
  const buyer = await apiRequest.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  try {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const profile = await created<{ id: string }>(
      await creator.post("/profiles", { data: { displayName: "Cache Shop", handle: `cache_${suffix}` } }),
    );
    const link = await created<{ token: string }>(
      await creator.post("/links", {
        data: { profileId: profile.id, title: `Cache pack ${suffix}`, priceMinor: 2000, currency: "EUR" },
      }),
    );
    const checkout = await created<{ orderId: string; checkoutSecret: string; paymentId: string }>(
      await buyer.post("/stripe/checkout", {
        data: { token: link.token, email: uniqueEmail("cache-buyer"), locale: "en" },
      }),
    );
    await created(
      await buyer.post(`/sandbox/payments/${checkout.paymentId}/confirm`, {
        data: { card: "4242424242424242", expiry: "12/34", cvc: "123" },
      }),
    );
    let orderToken: string | null = null;
    await expect
      .poll(
        async () => {
          const res = await buyer.get(`/checkout/${checkout.orderId}?secret=${checkout.checkoutSecret}`);
          const body = (await res.json()) as { status: string; orderToken: string | null };
          orderToken = body.orderToken;
          return body.status;
        },
        { timeout: 20_000 },
      )
      .toBe("paid");
    if (!orderToken) throw new Error("the paid order has no token");
    return { profileId: profile.id, linkToken: link.token, orderToken };
  } finally {
    await creator.dispose();
    await buyer.dispose();
  }
}

/** The answer's headers as a cache sees them: repeated fields joined into one list. */
function responseHeaders(res: APIResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, value } of res.headersArray()) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

interface Visitor {
  label: string;
  headers: Record<string, string>;
  lang: "en" | "fr";
}

/** Two visitors per way of choosing the language: the browser's languages, and the cookie. */
const pairs: [Visitor, Visitor][] = [
  [
    { label: "Accept-Language fr", headers: { "accept-language": "fr-FR,fr;q=0.9" }, lang: "fr" },
    { label: "Accept-Language en", headers: { "accept-language": "en-US,en;q=0.9" }, lang: "en" },
  ],
  [
    {
      label: "cookie fr",
      headers: { "accept-language": "en-US,en;q=0.9", cookie: "NEXT_LOCALE=fr" },
      lang: "fr",
    },
    { label: "no cookie", headers: { "accept-language": "en-US,en;q=0.9" }, lang: "en" },
  ],
];

/**
 * Fetches `path` as each visitor of each pair and checks that a shared cache that stored the first
 * visitor's page would not serve it to the second. Returns the first visitor's answer headers.
 */
async function checkNoMixing(
  request: APIRequestContext,
  path: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  let first: { status: number; headers: Record<string, string> } | undefined;
  for (const [stored, next] of pairs) {
    const answers = [];
    for (const visitor of [stored, next]) {
      const res = await request.get(path, { headers: visitor.headers, maxRedirects: 0 });
      answers.push({ visitor, res, headers: responseHeaders(res), body: await res.text() });
    }
    const [a, b] = answers as [(typeof answers)[0], (typeof answers)[0]];
    first ??= { status: a.res.status(), headers: a.headers };
    const where = `${path} (${a.visitor.label}, then ${b.visitor.label})`;
    if (a.res.status() >= 300 && a.res.status() < 400) {
      // A redirect carries no page: it may be shared only if it is the same for every language.
      expect(b.res.status(), where).toBe(a.res.status());
      expect(b.headers.location, where).toBe(a.headers.location);
      continue;
    }
    expect(a.headers["content-type"], where).toMatch(/^text\/html/);
    // Each visitor gets a page in their own language (where the page names it)…
    for (const { body, visitor } of [a, b]) {
      const lang = /<html[^>]*\slang="([^"]*)"/.exec(body)?.[1];
      if (lang !== undefined) expect(lang, where).toBe(visitor.lang);
    }
    // …and a shared cache that kept the first never answers the second with it.
    const storedRequest = { url: path, method: "GET", headers: { host: "web.test", ...a.visitor.headers } };
    const policy = new CachePolicy(
      storedRequest,
      { status: a.res.status(), headers: a.headers },
      { shared: true },
    );
    if (!policy.storable()) continue;
    const nextRequest = { url: path, method: "GET", headers: { host: "web.test", ...b.visitor.headers } };
    expect(
      policy.satisfiesWithoutRevalidation(nextRequest),
      `${where}: cache-control "${a.headers["cache-control"]}", vary "${a.headers.vary}"`,
    ).toBe(false);
    // The same visitor again may be served from the cache (caching still works where it is safe).
    const again = { url: path, method: "GET", headers: { host: "web.test", ...a.visitor.headers } };
    if (!/no-cache|max-age=0\b/.test(a.headers["cache-control"] ?? ""))
      expect(policy.satisfiesWithoutRevalidation(again), where).toBe(true);
  }
  if (!first) throw new Error("no answer");
  return first;
}

test.describe("shared caches never mix languages", () => {
  let seeded: { profileId: string; linkToken: string; orderToken: string };
  test.beforeAll(async () => {
    seeded = await seed();
  });

  test("each kind of page, in two languages, through a shared cache's rules", async ({ request }) => {
    const cached: string[] = [];
    for (const path of [
      "/",
      "/blog/how-affiliate-attribution-works",
      "/legal/privacy",
      `/v/${seeded.linkToken}`,
      `/c/${seeded.profileId}`,
      `/checkout/${seeded.linkToken}`,
      `/order/${seeded.orderToken}`,
      "/account/wallet",
      "/maintenance",
      "/no-such-page",
    ]) {
      const { status, headers } = await checkNoMixing(request, path);
      const policy = new CachePolicy(
        { url: path, method: "GET", headers: { host: "web.test" } },
        { status, headers },
        { shared: true },
      );
      if (policy.storable()) cached.push(path);
    }
    // The check above is not vacuous: the prerendered and ISR pages are publicly cacheable.
    expect(cached).toEqual(expect.arrayContaining(["/", `/v/${seeded.linkToken}`]));
  });

  test("built assets stay cacheable and do not vary on the language", async ({ request }) => {
    const home = await (await request.get("/")).text();
    const chunk = /src="(\/_next\/static\/[^"]+\.js)"/.exec(home)?.[1];
    expect(chunk).toBeTruthy();
    const res = await request.get(chunk ?? "", { headers: { "accept-language": "fr" } });
    expect(res.status()).toBe(200);
    const headers = responseHeaders(res);
    expect(headers.vary ?? "").not.toMatch(/cookie|accept-language/i);
    const policy = new CachePolicy(
      { url: chunk ?? "", method: "GET", headers: { host: "web.test", "accept-language": "fr" } },
      { status: 200, headers },
      { shared: true },
    );
    expect(policy.storable()).toBe(true);
    expect(
      policy.satisfiesWithoutRevalidation({
        url: chunk ?? "",
        method: "GET",
        headers: { host: "web.test", "accept-language": "en", cookie: "NEXT_LOCALE=es" },
      }),
    ).toBe(true);
  });
});
