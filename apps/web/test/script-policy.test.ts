import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScripts, isFrameworkScript, pageScriptHashes, scriptHash } from "../server/script-policy.ts";

// The shapes Next.js 16 (Turbopack) writes into every page, as found in the built HTML.
const flightStart = "(self.__next_f=self.__next_f||[]).push([0])";
const flightRow = 'self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n2:I[27201,[],\\"IconMark\\"]\\n"])';
const chunks =
  '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/44is5unny0ti1.js","static/chunks/1k2w3nq2-wg_-.js"],"runtimeModuleIds":[94553]});';
const own = "globalThis.__own=1;";

function page(...scripts: string[]): string {
  return `<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async=""></script></head><body>${scripts.join("")}</body></html>`;
}

describe("scriptHash", () => {
  it("is the CSP source the browser computes (SHA-256 of the UTF-8 text, base64)", () => {
    expect(scriptHash("")).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    // The bytes of "é" in UTF-8, not in Latin-1 (pages hold text in every language).
    const utf8 = createHash("sha256")
      .update(Buffer.from([0xc3, 0xa9]))
      .digest("base64");
    expect(scriptHash("é")).toBe(`'sha256-${utf8}'`);
  });
});

describe("inlineScripts", () => {
  it("finds every inline script the browser runs, in any case, and skips external ones and data blocks", () => {
    const html = page(
      "<script>a()</script>",
      '<SCRIPT type="module">b()</SCRIPT >',
      '<script type="application/ld+json">{"@type":"Thing"}</script>',
      '<script data-src="x" nonce="n">c()</script>',
      "<script src=/x.js></script>",
      "<script type=text/javascript>d()</script>",
    );
    expect(inlineScripts(html)).toEqual(["a()", "b()", "c()", "d()"]);
  });
});

describe("isFrameworkScript", () => {
  it("accepts Next.js's data-only scripts", () => {
    for (const text of [
      flightStart,
      flightRow,
      "self.__next_f.push([2,null])",
      'self.__next_f.push([3,"AAEC"])',
      chunks,
    ]) {
      expect(isFrameworkScript(text), text).toBe(true);
    }
  });

  it("refuses anything that could carry code, even dressed as Next.js's", () => {
    for (const text of [
      "alert(1)",
      'self.__next_f.push([1,"x"]);alert(1)',
      "self.__next_f.push([1,alert(1)])",
      'self.__next_f.push([1,"x"]),alert(1)',
      "self.__next_f.push([9])",
      'self.__next_f.push(["1"])',
      `${flightStart};alert(1)`,
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["https://evil.example/x.js"]});',
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":[],"onload":["alert(1)"]});',
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":[]});alert(1)',
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push([])',
    ]) {
      expect(isFrameworkScript(text), text).toBe(false);
    }
  });
});

describe("pageScriptHashes", () => {
  it("hashes the framework's and our own scripts, not a script an injection added", () => {
    const injected = "fetch('/steal?c='+document.cookie)";
    const { hashes, refused } = pageScriptHashes(
      page(
        `<script>${own}</script>`,
        `<div class="description"><script>${injected}</script></div>`,
        `<script id="_R_">${chunks}</script>`,
        `<script>${flightStart}</script>`,
        `<script>${flightRow}</script>`,
        `<script>${flightRow}</script>`,
      ),
      new Set([scriptHash(own)]),
    );
    expect(hashes.sort()).toEqual(
      [scriptHash(own), scriptHash(chunks), scriptHash(flightStart), scriptHash(flightRow)].sort(),
    );
    expect(hashes).not.toContain(scriptHash(injected));
    expect(refused).toBe(1);
  });

  it("refuses a constant script that is not one of ours", () => {
    expect(pageScriptHashes(page(`<script>${own}</script>`), new Set())).toEqual({ hashes: [], refused: 1 });
  });
});
