/**
 * People asking for a page whose resource is missing (an unknown link token, creator or order, a
 * blog post that does not exist) get the whole 404 page in the HTML. Next.js 16 answers a
 * `notFound()` thrown while a page renders with an empty error shell (`<html id="__next_error__">`)
 * that only the browser fills in (vercel/next.js#62228), whereas a URL no route matches gets
 * app/global-not-found.tsx rendered whole. So when a page's answer is that shell, this server sends
 * the global 404 page instead, asked of itself with the visitor's language headers. Only 404 answers
 * whose first bytes are the shell pay anything; every other answer is passed on at its first write.
 * (Crawlers never get here: bot-not-found.ts answers them first.)
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const ERROR_SHELL = '<!DOCTYPE html><html id="__next_error__"';
/** A path no route matches: Next.js answers it with the global 404 page. */
export const NOT_FOUND_PATH = "/__not-found";
/** What the replacement page is asked with: what picks its language and theme. */
const FORWARDED = ["cookie", "accept-language", "user-agent"] as const;

type WriteHead = ServerResponse["writeHead"];
type Write = ServerResponse["write"];
type End = ServerResponse["end"];

export interface NotFoundPage {
  status: number;
  contentType: string;
  /** Its Content-Security-Policy: the nonce its scripts carry is in it. */
  policy: string | null;
  body: Buffer;
}

/** Fetches the global 404 page from this server, with the visitor's headers. */
export function loadFromServer(origin: string) {
  return async (req: IncomingMessage): Promise<NotFoundPage> => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const answer = await fetch(new URL(NOT_FOUND_PATH, origin), { headers, redirect: "manual" });
    return {
      status: answer.status,
      contentType: answer.headers.get("content-type") ?? "",
      policy: answer.headers.get("content-security-policy"),
      body: Buffer.from(await answer.arrayBuffer()),
    };
  };
}

function startsWithShell(chunk: unknown): boolean {
  if (typeof chunk === "string") return chunk.startsWith(ERROR_SHELL);
  if (chunk instanceof Uint8Array) {
    return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      .subarray(0, ERROR_SHELL.length)
      .equals(Buffer.from(ERROR_SHELL));
  }
  return false;
}

/**
 * Hooks a page request's response (installed over the other hooks, so that nothing below sees the
 * shell): Next.js's error shell is held back and replaced by `load`'s page, with status 404; if the
 * page cannot be had, the shell goes out as Next.js wrote it.
 */
export function notFoundPage(
  req: IncomingMessage,
  res: ServerResponse,
  load: (req: IncomingMessage) => Promise<NotFoundPage>,
): void {
  // Client navigations (React Server Components payloads) render the not-found boundary themselves.
  if (req.method !== "GET" || req.headers.rsc !== undefined || req.url?.startsWith("/_next/")) return;
  const { writeHead, write, end } = res;
  let deferredHead: Parameters<WriteHead> | undefined;
  const held: unknown[][] = [];
  let page: Promise<NotFoundPage | undefined> | undefined;

  const restore = (): void => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
  };
  const pass = (): void => {
    restore();
    if (deferredHead) res.writeHead(...deferredHead);
  };
  const isShell = (chunk: unknown): boolean => {
    const status = typeof deferredHead?.[0] === "number" ? deferredHead[0] : res.statusCode;
    return status === 404 && startsWithShell(chunk);
  };
  const finish = async (): Promise<void> => {
    const replacement = await page;
    restore();
    if (replacement?.status !== 404 || !replacement.contentType.startsWith("text/html")) {
      // Out as Next.js wrote it.
      if (deferredHead) res.writeHead(...deferredHead);
      for (const args of held.slice(0, -1)) res.write(...(args as Parameters<Write>));
      res.end(...(held.at(-1) as Parameters<End>));
      return;
    }
    res.statusCode = 404;
    // The shell's preload hints and length describe another document.
    res.removeHeader("link");
    res.removeHeader("content-length");
    res.setHeader("Content-Type", replacement.contentType);
    // Headers given to writeHead win over those the hooks below set: the page keeps the policy it
    // was rendered for (its nonce), rather than one this request's shell was meant to have.
    if (replacement.policy) res.writeHead(404, { "Content-Security-Policy": replacement.policy });
    res.end(replacement.body);
  };
  const hold = (args: unknown[], last: boolean): void => {
    // Next.js may wait on a write's callback: it is called now, and the bytes kept without it.
    const callback = args.at(-1);
    if (typeof callback === "function") queueMicrotask(() => callback());
    held.push(args.filter((arg) => typeof arg !== "function"));
    if (last) void finish();
  };

  res.writeHead = function (this: ServerResponse, ...args: Parameters<WriteHead>) {
    // The head waits for the first body bytes, which tell the shell apart.
    deferredHead = args;
    return this;
  } as WriteHead;
  res.write = function (this: ServerResponse, ...args: Parameters<Write>) {
    if (!page && !isShell(args[0])) {
      pass();
      return write.apply(this, args);
    }
    page ??= load(req).catch(() => undefined);
    hold(args, false);
    return true;
  } as Write;
  res.end = function (this: ServerResponse, ...args: Parameters<End>) {
    if (!page && !isShell(args[0])) {
      pass();
      return end.apply(this, args);
    }
    page ??= load(req).catch(() => undefined);
    hold(args, true);
    return this;
  } as End;
}
