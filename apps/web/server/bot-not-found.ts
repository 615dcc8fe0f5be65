/**
 * Crawlers, link-preview fetchers and scripts get a bare `404 Not Found` (text/plain) for every
 * page that does not exist, whatever decided it: an unmatched URL, a malformed parameter, or a
 * well-formed token the API does not know (spec section 2). Deciding on the answer's status rather
 * than on a list of routes (the former proxy.ts) covers every page with nothing to keep in step,
 * and costs people one user-agent test per request.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isBot } from "@salelink/contracts/bots";

const BODY = "Not Found";
/** Headers of ours that stay on the bare answer; the page's own (type, length, ETag, preload links…) go. */
const KEPT = new Set([
  "strict-transport-security",
  "x-frame-options",
  "x-content-type-options",
  "referrer-policy",
  "permissions-policy",
  "content-security-policy",
]);

type WriteHead = ServerResponse["writeHead"];
type Write = ServerResponse["write"];
type End = ServerResponse["end"];

/**
 * Hooks a crawler's response (before Next.js sees the request; installed over the other hooks) so
 * that a 404 leaves as the bare status. Returns whether the request came from a crawler.
 */
export function botNotFound(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isBot(req.headers["user-agent"])) return false;
  const { writeHead, write, end } = res;
  let state: "open" | "bare" | "passed" = "open";

  const restore = (): void => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
  };
  /** On the first head or body: a 404 becomes bare, anything else goes on untouched. */
  const decide = (status: number): "bare" | "passed" => {
    if (state !== "open") return state;
    restore();
    if (status !== 404) {
      state = "passed";
      return state;
    }
    state = "bare";
    for (const name of res.getHeaderNames()) if (!KEPT.has(name)) res.removeHeader(name);
    res.statusCode = 404;
    // Not the same body as people get under the same URL: no cache may keep it for them.
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(BODY);
    // What Next.js writes after this is its page: dropped.
    res.writeHead = (() => res) as unknown as WriteHead;
    res.write = ((...args: unknown[]) => {
      callBack(args);
      return true;
    }) as Write;
    res.end = ((...args: unknown[]) => {
      callBack(args);
      return res;
    }) as End;
    return state;
  };

  res.writeHead = function (this: ServerResponse, ...args: Parameters<WriteHead>) {
    if (decide(args[0]) === "bare") return this;
    return writeHead.apply(this, args);
  } as WriteHead;
  res.write = function (this: ServerResponse, ...args: Parameters<Write>) {
    if (decide(this.statusCode) === "bare") {
      callBack(args);
      return true;
    }
    return write.apply(this, args);
  } as Write;
  res.end = function (this: ServerResponse, ...args: Parameters<End>) {
    if (decide(this.statusCode) === "bare") {
      callBack(args);
      return this;
    }
    return end.apply(this, args);
  } as End;
  return true;
}

/** Node's write/end take an optional callback last: a dropped write still calls it. */
function callBack(args: readonly unknown[]): void {
  const last = args[args.length - 1];
  if (typeof last === "function") queueMicrotask(() => last());
}
