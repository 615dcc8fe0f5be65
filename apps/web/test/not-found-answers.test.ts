import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "next/dist/compiled/compression/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { botNotFound } from "../server/bot-not-found.ts";
import { type NotFoundPage, notFoundPage } from "../server/not-found-page.ts";

const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const browser =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const shell = '<!DOCTYPE html><html id="__next_error__"><head></head><body></body></html>';
const wholePage =
  '<!DOCTYPE html><html lang="fr"><body><header>Salelink</header><h1>Ooops.</h1></body></html>';
const bigPage = `<!DOCTYPE html><html><body>${"<p>real page</p>".repeat(200)}</body></html>`;

/** Answers as Next.js does: a page whole, a page streamed, and 404s whole or streamed. */
function nextLike(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (url === "/page") {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("ETag", '"page"');
    res.end(bigPage);
  } else if (url === "/streamed") {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.write("<!DOCTYPE html><html><body>");
    setTimeout(() => res.end("<p>streamed</p></body></html>"), 5);
  } else if (url === "/unmatched") {
    // An unmatched URL: Next.js renders its 404 page whole.
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(wholePage);
  } else if (url === "/v/unknown" || url === "/cached-unknown") {
    // notFound() thrown by a page: the error shell, streamed or (from the cache) whole.
    res.statusCode = 404;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Link", "</_next/static/chunks/x.css>; rel=preload; as=style");
    if (url === "/cached-unknown") {
      res.end(shell);
      return;
    }
    res.write(shell.slice(0, 60));
    setTimeout(() => res.end(shell.slice(60)), 5);
  } else if (url === "/api-like") {
    res.statusCode = 404;
    res.setHeader("Content-Type", "application/json");
    res.end('{"statusCode":404}');
  } else {
    res.setHeader("Content-Type", "text/plain");
    res.end("ok");
  }
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

async function start(load: (req: IncomingMessage) => Promise<NotFoundPage>): Promise<string> {
  const compress = compression();
  server = createServer((req, res) => {
    compress(req, res, () => {});
    // As the policy hook does (response-policy.ts): its header, set when the head is written.
    const { writeHead } = res;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      this.setHeader("Content-Security-Policy", "script-src 'nonce-of-this-request'");
      return writeHead.apply(this, args);
    } as ServerResponse["writeHead"];
    if (!botNotFound(req, res)) notFoundPage(req, res, load);
    nextLike(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const globalPage = async (req: IncomingMessage): Promise<NotFoundPage> => ({
  status: 404,
  contentType: "text/html; charset=utf-8",
  policy: "script-src 'nonce-of-the-404-page'",
  body: Buffer.from(wholePage.replace("fr", req.headers["accept-language"] ?? "en")),
});

describe("crawlers' 404s (bot-not-found.ts)", () => {
  it.each(["/unmatched", "/v/unknown", "/cached-unknown", "/api-like"])(
    "answer %s with a bare text/plain Not Found",
    async (path) => {
      const base = await start(globalPage);
      for (const encoding of ["identity", "gzip"]) {
        const res = await fetch(`${base}${path}`, {
          headers: { "user-agent": googlebot, "accept-encoding": encoding },
        });
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(res.headers.get("link")).toBeNull();
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(await res.text()).toBe("Not Found");
      }
    },
  );

  it("serve crawlers real pages as they are", async () => {
    const base = await start(globalPage);
    for (const [path, body] of [
      ["/page", bigPage],
      ["/streamed", "<!DOCTYPE html><html><body><p>streamed</p></body></html>"],
    ] as const) {
      const res = await fetch(`${base}${path}`, { headers: { "user-agent": googlebot } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(body);
    }
  });

  it("leave people's 404 pages alone", async () => {
    const base = await start(globalPage);
    const res = await fetch(`${base}/unmatched`, { headers: { "user-agent": browser } });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(wholePage);
  });
});

describe("people's 404s (not-found-page.ts)", () => {
  it.each(["/v/unknown", "/cached-unknown"])(
    "replace the error shell of %s with the whole 404 page, in the visitor's language",
    async (path) => {
      const base = await start(globalPage);
      for (const encoding of ["identity", "gzip"]) {
        const res = await fetch(`${base}${path}`, {
          headers: { "user-agent": browser, "accept-language": "es", "accept-encoding": encoding },
        });
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(res.headers.get("link")).toBeNull();
        expect(res.headers.get("content-security-policy")).toBe("script-src 'nonce-of-the-404-page'");
        expect(await res.text()).toBe(wholePage.replace("fr", "es"));
      }
    },
  );

  it("send the shell as it was when the 404 page cannot be had", async () => {
    const base = await start(async () => {
      throw new Error("down");
    });
    const res = await fetch(`${base}/v/unknown`, { headers: { "user-agent": browser } });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(shell);
  });

  it("pass every other answer through untouched, without asking for the 404 page", async () => {
    let asked = 0;
    const base = await start(async (req) => {
      asked += 1;
      return globalPage(req);
    });
    for (const [path, status, body] of [
      ["/page", 200, bigPage],
      ["/streamed", 200, "<!DOCTYPE html><html><body><p>streamed</p></body></html>"],
      ["/unmatched", 404, wholePage],
      ["/api-like", 404, '{"statusCode":404}'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { headers: { "user-agent": browser } });
      expect(res.status, path).toBe(status);
      expect(await res.text(), path).toBe(body);
    }
    // Client navigations get the payload Next.js wrote.
    const rsc = await fetch(`${base}/cached-unknown`, { headers: { "user-agent": browser, rsc: "1" } });
    expect(await rsc.text()).toBe(shell);
    expect(asked).toBe(0);
  });
});
