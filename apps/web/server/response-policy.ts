/**
 * Gives every answer of the web app's server its Content-Security-Policy, with no 'unsafe-inline'
 * in script-src (decision 020):
 *
 * - a page sent whole (prerendered, ISR or cached: Next.js ends the response with the full HTML and
 *   an ETag) gets the hashes of its inline scripts, computed over that body (script-policy.ts) and
 *   remembered per ETag, so a cached page costs one map look-up;
 * - an answer streamed as it renders (dynamic pages) gets a nonce: Next.js reads it from the
 *   request's own Content-Security-Policy header, which this server sets (replacing any a client
 *   sent), and puts it on every script it writes;
 * - built assets get the policy without either.
 */
import { randomFillSync } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pageScriptHashes } from "./script-policy.ts";

export interface ResponsePolicyOptions {
  /** The full policy with these sources added to script-src (page-policy.ts). */
  policy: (scriptSources: readonly string[]) => string;
  /** Hashes of our root layout's constant scripts, allowed on every page. */
  ownHashes: ReadonlySet<string>;
  /** How many pages' hashes to remember (one entry per ETag, so per page and build). */
  cacheSize: number;
  /** Told once per page version when its body holds an inline script the policy refuses. */
  onRefused?: (url: string, refused: number) => void;
}

const HEADER = "Content-Security-Policy";
// Built assets never render a document: no nonce to make, no body to read.
const ASSET_PREFIX = "/_next/static/";

export interface ResponsePolicy {
  /** Before Next.js sees the request: sets the nonce it will use and hooks the response. */
  prepare(req: IncomingMessage, res: ServerResponse): void;
}

// Nonces are cut from a buffer of random bytes filled 256 at a time: one system call per 256
// requests instead of one each (a cached page is served in well under a millisecond).
const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/** 128 random bits, base64: what CSP asks of a nonce, and what Next.js's nonce pattern accepts. */
export function newNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

export function responsePolicy(options: ResponsePolicyOptions): ResponsePolicy {
  const own = [...options.ownHashes];
  const assetPolicy = options.policy(own);
  /** ETag → the policy of that exact body; a Map iterates in insertion order, so the oldest goes first. */
  const byEtag = new Map<string, string>();

  function remember(etag: string, policy: string): void {
    byEtag.set(etag, policy);
    if (byEtag.size > options.cacheSize) {
      const oldest = byEtag.keys().next().value;
      if (oldest !== undefined) byEtag.delete(oldest);
    }
  }

  function wholePagePolicy(res: ServerResponse, body: string, url: string): string {
    const etag = res.getHeader("etag");
    const known = typeof etag === "string" ? byEtag.get(etag) : undefined;
    if (known) return known;
    const { hashes, refused } = pageScriptHashes(body, options.ownHashes);
    if (refused > 0) options.onRefused?.(url, refused);
    const policy = options.policy(hashes);
    if (typeof etag === "string") remember(etag, policy);
    return policy;
  }

  return {
    prepare(req, res) {
      const url = req.url ?? "/";
      // A client's own CSP request headers must never choose the nonce Next.js writes.
      delete req.headers["content-security-policy"];
      delete req.headers["content-security-policy-report-only"];
      if (url.startsWith(ASSET_PREFIX)) {
        res.setHeader(HEADER, assetPolicy);
        return;
      }
      const nonce = newNonce();
      req.headers["content-security-policy"] = `script-src 'nonce-${nonce}'`;
      // A 304 must carry the policy of the body the browser keeps: without its hashes at hand
      // (a restart, or evicted), ask Next.js for the body again instead.
      const ifNoneMatch = req.headers["if-none-match"];
      if (ifNoneMatch && !byEtag.has(ifNoneMatch)) delete req.headers["if-none-match"];

      let decided = false;
      const decide = (policy: string): void => {
        if (decided || res.headersSent) return;
        decided = true;
        res.setHeader(HEADER, policy);
      };
      const streamed = (): void => {
        if (!decided) decide(options.policy([...own, `'nonce-${nonce}'`]));
      };

      // Installed over whatever already wraps these (the compression middleware), so the header is
      // decided before any wrapper below writes the head.
      const { end, write, writeHead } = res;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
        // Headers passed to writeHead itself are applied after ours, as Node does.
        streamed();
        return writeHead.apply(this, args);
      } as ServerResponse["writeHead"];
      res.write = function (this: ServerResponse, ...args: Parameters<ServerResponse["write"]>) {
        streamed();
        return write.apply(this, args);
      } as ServerResponse["write"];
      res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse["end"]>) {
        const [chunk] = args;
        if (!decided && res.statusCode === 304) {
          // Next.js answers 304 before it sets the content type: the policy the body had.
          const etag = res.getHeader("etag");
          const known = typeof etag === "string" ? byEtag.get(etag) : undefined;
          if (known) decide(known);
        } else if (!decided && isHtml(res.getHeader("content-type")) && chunk instanceof Uint8Array) {
          decide(
            wholePagePolicy(
              res,
              Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(),
              url,
            ),
          );
        } else if (!decided && isHtml(res.getHeader("content-type")) && typeof chunk === "string") {
          decide(wholePagePolicy(res, chunk, url));
        }
        streamed();
        return end.apply(this, args);
      } as ServerResponse["end"];
    },
  };
}

function isHtml(contentType: OutgoingHttpHeaders[string]): boolean {
  return typeof contentType === "string" && contentType.startsWith("text/html");
}
