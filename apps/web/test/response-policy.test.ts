import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "next/dist/compiled/compression/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { newNonce, responsePolicy } from "../server/response-policy.ts";
import { scriptHash } from "../server/script-policy.ts";

const own = "globalThis.__own=1;";
const flight = 'self.__next_f.push([1,"0:[]\\n"])';
const injected = "alert(document.cookie)";
const cachedPage = `<html><body><script>${own}</script><p><script>${injected}</script></p><script>${flight}</script></body></html>`;
const policyOf = (sources: readonly string[]) =>
  `default-src 'self'; script-src 'self' ${sources.join(" ")}`.trim();

const etags: Record<string, string> = { "/cached": '"abc123"', "/other": '"def456"', "/third": '"ghi789"' };

/** Answers as Next.js does: a cached page whole with its ETag (or a 304), a dynamic one in chunks. */
function nextLike(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  const etag = etags[url];
  if (etag) {
    res.setHeader("ETag", etag);
    if (req.headers["if-none-match"] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(cachedPage));
    res.end(cachedPage);
    return;
  }
  if (url === "/dynamic") {
    // Next.js takes the nonce from the request's own policy header.
    const nonce = /'nonce-([^']+)'/.exec(String(req.headers["content-security-policy"]))?.[1] ?? "";
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.write(`<html><body><script>${own}</script>`);
    res.end(`<script nonce="${nonce}">${flight}</script><i>${nonce}</i></body></html>`);
    return;
  }
  res.setHeader("Content-Type", "application/javascript");
  res.end(`seen(${JSON.stringify(req.headers["if-none-match"] ?? null)})`);
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

async function start(onRefused?: (url: string, refused: number) => void): Promise<string> {
  const policy = responsePolicy({
    policy: policyOf,
    ownHashes: new Set([scriptHash(own)]),
    cacheSize: 2,
    onRefused,
  });
  const compress = compression();
  server = createServer((req, res) => {
    compress(req, res, () => {});
    policy.prepare(req, res);
    nextLike(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const scriptSrc = (res: Response) =>
  (res.headers.get("content-security-policy") ?? "").replace(/^.*script-src /, "").split(" ");

describe("newNonce", () => {
  it("gives 128 random bits each time, across refills of its pool", () => {
    const nonces = Array.from({ length: 600 }, newNonce);
    expect(new Set(nonces).size).toBe(600);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("responsePolicy", () => {
  it("gives a cached page the hashes of its framework and own scripts, not of an injected one", async () => {
    const refusals: string[] = [];
    const base = await start((url, refused) => refusals.push(`${url} ${refused}`));
    for (const encoding of ["identity", "gzip"]) {
      const res = await fetch(`${base}/cached`, { headers: { "accept-encoding": encoding } });
      expect(await res.text()).toBe(cachedPage);
      const sources = scriptSrc(res);
      expect(sources).toEqual(expect.arrayContaining([scriptHash(own), scriptHash(flight)]));
      expect(sources).not.toContain(scriptHash(injected));
      expect(sources).not.toContain("'unsafe-inline'");
      expect(sources.some((s) => s.startsWith("'nonce-"))).toBe(false);
    }
    // Hashed once per ETag, then remembered.
    expect(refusals).toEqual(["/cached 1"]);
  });

  it("answers a 304 with the policy of the body the browser keeps, and asks for the body when it has none", async () => {
    const base = await start();
    // Unknown ETag (as after a restart): the request reaches the handler without it.
    const first = await fetch(`${base}/asset`, { headers: { "if-none-match": '"abc123"' } });
    expect(await first.text()).toBe("seen(null)");
    const unknown = await fetch(`${base}/cached`, { headers: { "if-none-match": '"abc123"' } });
    expect(unknown.status).toBe(200);
    const cached = scriptSrc(unknown);
    const revalidated = await fetch(`${base}/cached`, { headers: { "if-none-match": '"abc123"' } });
    expect(revalidated.status).toBe(304);
    expect(scriptSrc(revalidated)).toEqual(cached);
  });

  it("gives a streamed page a fresh nonce, the one Next.js is told, whatever the client sent", async () => {
    const base = await start();
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/dynamic`, {
        headers: { "content-security-policy": "script-src 'nonce-chosenbyattacker'" },
      });
      const used = /<i>([^<]*)<\/i>/.exec(await res.text())?.[1] ?? "";
      expect(used).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(scriptSrc(res)).toEqual(["'self'", scriptHash(own), `'nonce-${used}'`]);
      nonces.add(used);
    }
    expect(nonces.size).toBe(2);
  });

  it("keeps a bounded number of pages, the latest ones", async () => {
    const base = await start(); // remembers two pages
    const revalidate = async (path: string) =>
      (await fetch(`${base}${path}`, { headers: { "if-none-match": etags[path] ?? "" } })).status;
    for (const path of ["/cached", "/other", "/third"]) await fetch(`${base}${path}`);
    // The oldest was pushed out: its revalidation gets the whole body (and its hashes) again.
    expect(await revalidate("/cached")).toBe(200);
    expect(await revalidate("/third")).toBe(304);
  });
});
