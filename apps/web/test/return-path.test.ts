import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../lib/return-path.ts";

const ORIGIN = "https://salelink.example";
const FALLBACK = "/account";

/*
 * Issue 16, item 5: every form of "go elsewhere" a `?next=` can carry. Each must fall back to the
 * default page; the list mixes what browsers treat as another host with what parsers disagree on.
 */
const attacks: [string, string | null | undefined][] = [
  ["the reported backslash", "/\\evil.example/phish"],
  ["two backslashes", "\\\\evil.example"],
  ["backslash then slash", "\\/evil.example"],
  ["slash backslash slash", "/\\/evil.example"],
  ["protocol-relative", "//evil.example/phish"],
  ["three slashes", "///evil.example"],
  ["https URL", "https://evil.example/phish"],
  ["http URL on our own host name but another scheme", "http://salelink.example/account"],
  ["our origin spelt out (not a path)", "https://salelink.example/account"],
  ["javascript scheme", "javascript:alert(document.domain)"],
  ["javascript scheme in capitals with a blank", " JavaScript:alert(1)"],
  ["data URL", "data:text/html,<script>alert(1)</script>"],
  ["encoded slash", "/%2fevil.example"],
  ["encoded slash in capitals", "/%2Fevil.example/phish"],
  ["encoded backslash", "/%5cevil.example"],
  ["encoded backslash in capitals", "/%5Cevil.example"],
  ["double-encoded slash", "/%252fevil.example"],
  ["double-encoded backslash", "/%255cevil.example"],
  ["tab inside the slashes", "/\t/evil.example"],
  ["newline inside the slashes", "/\n/evil.example"],
  ["carriage return", "/\r/evil.example"],
  ["encoded tab", "/%09/evil.example"],
  ["encoded newline", "/%0a/evil.example"],
  ["NUL", "/\u0000/evil.example"],
  ["encoded NUL", "/%00/evil.example"],
  ["leading space", " /account"],
  ["leading space before slashes", " //evil.example"],
  ["non-breaking space", "/\u00a0/evil.example"],
  ["ideographic space", "/\u3000/evil.example"],
  ["zero-width space", "/\u200b/evil.example"],
  ["right-to-left override", "/\u202e/evil.example"],
  ["dot segment folding into //", "/.//evil.example"],
  ["dot-dot folding into //", "/..//evil.example"],
  ["relative path", "account"],
  ["relative host-looking path", "evil.example/phish"],
  ["malformed encoding", "/%E0%A4%A"],
  ["empty", ""],
  ["missing", null],
  ["undefined", undefined],
  ["too long", `/${"a".repeat(5000)}`],
];

describe("safeReturnPath", () => {
  it.each(attacks)("refuses %s", (_, raw) => {
    expect(safeReturnPath(raw, ORIGIN, FALLBACK)).toBe(FALLBACK);
  });

  it.each([
    ["/account", "/account"],
    ["/account/links", "/account/links"],
    ["/account/wallet?identity=done#identity", "/account/wallet?identity=done#identity"],
    ["/v/abc123", "/v/abc123"],
    ["/account/../account/settings", "/account/settings"],
    ["/blog/caf%C3%A9", "/blog/caf%C3%A9"],
    // A path on our site that merely looks like a host: harmless.
    ["/@evil.example", "/@evil.example"],
  ])("keeps the same-site path %s", (raw, expected) => {
    expect(safeReturnPath(raw, ORIGIN, FALLBACK)).toBe(expected ?? FALLBACK);
  });

  it("never answers something that leaves the origin, whatever the input", () => {
    const pieces = [
      "/",
      "\\",
      "%2f",
      "%5c",
      "%25",
      ".",
      "..",
      "evil.example",
      "@",
      ":",
      "\t",
      " ",
      "?",
      "#",
      "a",
    ];
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const result = safeReturnPath(`${a}${b}${c}`, ORIGIN, FALLBACK);
          expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
          expect(result.startsWith("/") && !result.startsWith("//") && !result.includes("\\")).toBe(true);
        }
  });
});
