import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "next/dist/compiled/compression/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localeRewrites } from "../lib/locale-rewrites.ts";
import { prepareLocale } from "../server/locale-request.ts";

const nextVary = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/** The locale Next.js's rewrites pick for this request, evaluating their `has` rules as Next.js does. */
function rewrittenLocale(req: IncomingMessage): string {
  const cookies = new Map(
    (req.headers.cookie ?? "").split(";").map((c) => c.trim().split("=", 2) as [string, string]),
  );
  for (const rule of localeRewrites()) {
    const ok = (rule.has ?? []).every((cond) => {
      const actual = cond.type === "cookie" ? cookies.get(cond.key) : req.headers[cond.key];
      return typeof actual === "string" && new RegExp(cond.value).test(actual);
    });
    if (ok) return rule.destination.split("/")[1] ?? "";
  }
  throw new Error("no rule matched");
}

/** Answers as Next.js does: pages with its own Vary set by setHeader (replacing any), assets without. */
function nextLike(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  if (url.startsWith("/_next/static/")) {
    res.setHeader("Content-Type", "application/javascript");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.end("self.chunk=1;");
    return;
  }
  if (url === "/env.json") {
    res.setHeader("Content-Type", "application/json");
    res.end("{}");
    return;
  }
  res.setHeader("Vary", nextVary);
  res.setHeader("ETag", '"page"');
  if (req.headers["if-none-match"] === '"page"') {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader("Content-Type", url === "/rsc" ? "text/x-component" : "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "s-maxage=31536000");
  res.end(`<html lang="${rewrittenLocale(req)}"></html>`);
}

let server: Server;
let base: string;
beforeAll(async () => {
  const compress = compression();
  server = createServer((req, res) => {
    compress(req, res, () => {});
    prepareLocale(req, res);
    nextLike(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

async function lang(headers: Record<string, string>): Promise<string | undefined> {
  const res = await fetch(`${base}/blog`, { headers });
  return /lang="([^"]*)"/.exec(await res.text())?.[1];
}

describe("the server's language for the locale rewrites (decision 023)", () => {
  it("weighs Accept-Language's quality values and reads tags in any case", async () => {
    expect(await lang({ "accept-language": "fr;q=0.1,es;q=0.9" })).toBe("es");
    expect(await lang({ "accept-language": "FR-fr" })).toBe("fr");
    expect(await lang({ "accept-language": "es;q=0, fr;q=0.2, de" })).toBe("fr");
    expect(await lang({ "accept-language": "de" })).toBe("en");
    expect(await lang({})).toBe("en");
  });

  it("keeps the cookie first when it names a supported locale", async () => {
    expect(await lang({ cookie: "theme=dark; NEXT_LOCALE=es", "accept-language": "fr" })).toBe("es");
    expect(await lang({ cookie: "NEXT_LOCALE=de", "accept-language": "fr;q=0.1,es;q=0.9" })).toBe("es");
    expect(await lang({ cookie: "MY_NEXT_LOCALE=fr", "accept-language": "es" })).toBe("es");
  });

  it("overwrites the header a client sends, whatever its value", async () => {
    expect(await lang({ "x-salelink-locale": "fr", "accept-language": "es" })).toBe("es");
    expect(await lang({ "x-salelink-locale": "fr", cookie: "NEXT_LOCALE=es" })).toBe("es");
    expect(await lang({ "x-salelink-locale": "de" })).toBe("en");
  });
});

describe("Vary on answers whose content depends on the language", () => {
  const vary = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    return { status: res.status, vary: res.headers.get("vary") ?? "" };
  };

  it("merges Cookie and Accept-Language into Next.js's own Vary on pages and their payloads", async () => {
    for (const path of ["/blog", "/rsc"]) {
      const { vary: value } = await vary(path);
      expect(value).toContain(nextVary);
      expect(value).toMatch(/\bCookie\b/);
      expect(value).toMatch(/\bAccept-Language\b/);
      // Still one list: the compression middleware's Accept-Encoding is merged in too.
      expect(value).toMatch(/\bAccept-Encoding\b/);
    }
  });

  it("keeps them on a 304, whose Vary replaces the stored answer's", async () => {
    const res = await vary("/blog", { "if-none-match": '"page"' });
    expect(res.status).toBe(304);
    expect(res.vary).toMatch(/\bCookie\b.*\bAccept-Language\b/);
  });

  it("adds nothing to built assets or language-free data", async () => {
    expect((await vary("/_next/static/chunks/a.js")).vary).not.toMatch(/Cookie|Accept-Language/);
    expect((await vary("/env.json")).vary).not.toMatch(/Cookie|Accept-Language/);
  });
});
