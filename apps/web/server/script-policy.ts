/**
 * Which inline scripts of a cached page the policy allows, by hash (decision 020). Next.js writes
 * each page's React payload and its chunk list into inline scripts whose text differs per page and
 * per render; a cached page is sent whole, so the server hashes them over the body it sends. Only
 * scripts of Next.js's own data-only shapes, and the constant scripts of our root layout, are
 * hashed: any other inline script in the body (what an HTML injection would add) gets no hash, and
 * the browser refuses it.
 */
import { createHash } from "node:crypto";

/** A CSP hash source of a script's text, as the browser computes it (SHA-256 of its UTF-8 bytes). */
export function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

// Case-insensitive as HTML is. A script this misses or cuts wrongly only gets no hash (refused):
// extraction errors can never allow a text outside the shapes below.
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;
const TYPE_ATTRIBUTE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
// Types the browser runs as script; any other type (JSON-LD, JSON data) is a data block CSP ignores.
const SCRIPT_TYPES = new Set(["", "module", "text/javascript", "application/javascript"]);

/** The text of every inline script of an HTML document that the browser would run. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(SCRIPT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim().toLowerCase();
    if (SCRIPT_TYPES.has(value)) scripts.push(text);
  }
  return scripts;
}

/** Parses a JSON literal, or undefined: JSON cannot hold code, only data. */
function json(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const FLIGHT_START = "(self.__next_f=self.__next_f||[]).push([0])";
const FLIGHT_PUSH = /^self\.__next_f\.push\((\[[\s\S]*\])\)$/;
const TURBOPACK_CHUNKS =
  /^\(globalThis\["TURBOPACK"\] \|\| \(globalThis\["TURBOPACK"\] = \[\]\)\)\.push\((\{[\s\S]*\})\);?$/;
const CHUNK_PATH = /^static\/chunks\/[\w.-]+\.(?:js|css)$/;

/**
 * Next.js's inline scripts, recognised by their exact shape: each only hands a JSON literal to
 * Next.js's runtime (the React payload's rows: `[0]`, `[1, text]`, `[2, form state]`, `[3, base64]`;
 * the page's chunk paths and runtime module ids). The argument must parse as JSON, so a text of
 * this shape cannot carry code; chunks are loaded by URL, which the policy's origins still govern.
 */
export function isFrameworkScript(text: string): boolean {
  if (text === FLIGHT_START) return true;
  const push = json(FLIGHT_PUSH.exec(text)?.[1]);
  if (Array.isArray(push)) {
    const [kind] = push;
    return typeof kind === "number" && Number.isInteger(kind) && kind >= 0 && kind <= 3;
  }
  const chunks = json(TURBOPACK_CHUNKS.exec(text)?.[1]);
  if (typeof chunks !== "object" || chunks === null || Array.isArray(chunks)) return false;
  return Object.entries(chunks).every(([key, value]) => {
    if (!Array.isArray(value)) return false;
    if (key === "otherChunks") return value.every((v) => typeof v === "string" && CHUNK_PATH.test(v));
    if (key === "runtimeModuleIds") return value.every((v) => typeof v === "number" || typeof v === "string");
    return false;
  });
}

export interface PageScripts {
  /** Hash sources to add to script-src: the framework's scripts and our own constant ones. */
  hashes: string[];
  /** Inline scripts left without a hash (refused by the browser): an injection, or a new Next.js shape. */
  refused: number;
}

/** The hashes a cached HTML body needs; `ownHashes` are the hashes of our root layout's constant scripts. */
export function pageScriptHashes(html: string, ownHashes: ReadonlySet<string>): PageScripts {
  const hashes = new Set<string>();
  let refused = 0;
  for (const text of inlineScripts(html)) {
    const hash = scriptHash(text);
    if (ownHashes.has(hash) || isFrameworkScript(text)) hashes.add(hash);
    else refused += 1;
  }
  return { hashes: [...hashes], refused };
}
