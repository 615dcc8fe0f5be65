import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstLoad } from "../scripts/first-load-js.mjs";

const route = "/[locale]/(site)/v/[token]/page";

/** A .next directory shaped like Next 16's Turbopack build output, with incompressible chunks. */
function fixture(pageChunkBytes: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "first-load-"));
  const chunk = (name: string, bytes: number) => {
    mkdirSync(path.join(dir, "static", "chunks"), { recursive: true });
    writeFileSync(path.join(dir, "static", "chunks", name), randomBytes(bytes));
    return `static/chunks/${name}`;
  };
  const runtime = [chunk("react-dom.js", 40_000), chunk("next-client.js", 20_000)];
  const polyfill = chunk("polyfill-nomodule.js", 30_000);
  const shell = [chunk("shell.js", 10_000), chunk("zod.js", 15_000)];
  const site = chunk("site-layout.js", 5_000);
  const error = chunk("error.js", 2_000);
  const island = chunk("promo-island.js", pageChunkBytes);
  writeFileSync(
    path.join(dir, "build-manifest.json"),
    JSON.stringify({ pages: { "/_app": [] }, polyfillFiles: [polyfill], rootMainFiles: runtime }),
  );
  const builtin = chunk("next-not-found.js", 3_000);
  const entryJSFiles = {
    "[project]/node_modules/next/dist/client/components/builtin/not-found": [builtin],
    "[project]/apps/web/app/global-error": [error],
    "[project]/apps/web/app/[locale]/layout": shell,
    "[project]/apps/web/app/[locale]/error": [...shell, error],
    "[project]/apps/web/app/[locale]/(site)/layout": [...shell, site],
    // The page repeats its layouts' chunks: they must be counted once, in the baseline.
    [`[project]/apps/web/app${route}`]: [...shell, site, island],
  };
  const manifestDir = path.join(dir, "server", "app", "[locale]", "(site)", "v", "[token]");
  mkdirSync(manifestDir, { recursive: true });
  writeFileSync(
    path.join(manifestDir, "page_client-reference-manifest.js"),
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(
      route,
    )}] = ${JSON.stringify({ moduleLoading: { prefix: "" }, clientModules: {}, entryCSSFiles: {}, entryJSFiles })};\n`,
  );
  return dir;
}

describe("first-load JS report", () => {
  it("counts everything of ours above the bare framework's page, each file once, without polyfills", () => {
    const result = firstLoad({ dir: fixture(4_000), route });
    // Random bytes do not compress: gzip adds a small header per file.
    expect(result.runtimeBytes).toBeGreaterThan(60_000);
    expect(result.runtimeBytes).toBeLessThan(60_200);
    expect(result.baselineBytes).toBeGreaterThan(63_000);
    expect(result.baselineBytes).toBeLessThan(63_300);
    expect(result.layoutBytes).toBeGreaterThan(32_000);
    expect(result.layoutBytes).toBeLessThan(32_300);
    expect(result.pageOwnBytes).toBeGreaterThan(4_000);
    expect(result.pageOwnBytes).toBeLessThan(4_100);
    expect(result.deltaBytes).toBe(result.layoutBytes + result.pageOwnBytes);
    expect(result.added.map((a) => a.file)).toContain("static/chunks/promo-island.js");
    expect(result.ok).toBe(false);
  });

  it("passes when what is ours fits in the budget", () => {
    const result = firstLoad({ dir: fixture(1_000), route, budgetBytes: 40 * 1024 });
    expect(result.ok).toBe(true);
  });

  it("fails over the 15 KB budget", () => {
    const result = firstLoad({ dir: fixture(1_000), route });
    expect(result.deltaBytes).toBeGreaterThan(15 * 1024);
    expect(result.ok).toBe(false);
  });

  it("throws when the build output is missing", () => {
    expect(() => firstLoad({ dir: mkdtempSync(path.join(os.tmpdir(), "empty-")), route })).toThrow();
  });
});
