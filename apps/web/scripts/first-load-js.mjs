#!/usr/bin/env node
/**
 * First-load JavaScript of a page after `next build` (Turbopack), against the baseline every page of
 * the same layouts loads; fails when the page adds more than the budget.
 *
 *   node scripts/first-load-js.mjs [--dir .next] [--route "/[locale]/(site)/v/[token]/page"] [--budget-kb 15]
 *
 * Where Next.js lists a route's scripts:
 * - `.next/build-manifest.json` `rootMainFiles`: the framework runtime (React, the router), loaded by
 *   every App Router page. `polyfillFiles` are `nomodule` scripts modern browsers skip: not counted.
 * - `.next/server/app/<route>_client-reference-manifest.js` assigns
 *   `globalThis.__RSC_MANIFEST["<route>"]`, whose `entryJSFiles` maps each module of the route's tree
 *   (`[project]/apps/web/app/[locale]/layout`, `…/error`, `…/not-found`, `…/(site)/layout`, the page,
 *   Next's built-in not-found and global-error) to the chunks rendered as <script async> for it.
 *
 * The framework's baseline page = rootMainFiles + the chunks of Next.js's own entries (its built-in
 * not-found boundary): what a bare Next.js page loads. Everything else the route loads is ours: the
 * layouts' shell (providers, header, consent, guards) and the page itself. The budget applies to all
 * of ours. Sizes are gzip (level 6, what servers typically send) of each distinct file, counted once.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

export const DEFAULT_ROUTE = "/[locale]/(site)/v/[token]/page";
export const DEFAULT_BUDGET_BYTES = 15 * 1024;

function readClientManifest(dir, route) {
  const file = path.join(dir, "server", "app", `${route}_client-reference-manifest.js`);
  const sandbox = { globalThis: {} };
  sandbox.globalThis = sandbox;
  sandbox.self = sandbox;
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox, { filename: file });
  const manifest = sandbox.__RSC_MANIFEST?.[route];
  if (!manifest?.entryJSFiles) throw new Error(`${file}: no entryJSFiles for ${route}`);
  return manifest.entryJSFiles;
}

const gzipSize = (dir, file) => gzipSync(readFileSync(path.join(dir, file)), { level: 6 }).length;

/** Measures one route; throws when a manifest or a listed chunk is missing. */
export function firstLoad({ dir, route = DEFAULT_ROUTE, budgetBytes = DEFAULT_BUDGET_BYTES }) {
  const build = JSON.parse(readFileSync(path.join(dir, "build-manifest.json"), "utf8"));
  const runtime = new Set(build.rootMainFiles ?? []);
  const entries = readClientManifest(dir, route);
  // Entry names are project paths without extension: "[project]/apps/web/app/[locale]/(site)/v/[token]/page".
  const pageKey = Object.keys(entries).find((key) => key.endsWith(`/app${route}`));
  if (!pageKey) throw new Error(`no entry for ${route} in ${Object.keys(entries).join(", ")}`);

  const isFramework = (key) => key.includes("/node_modules/next/");
  // app/global-not-found is listed with every route but rendered only as the 404 page of its own:
  // no page's HTML loads its chunks (it has its own copy of the shell's).
  const isOtherDocument = (key) => key.endsWith("/app/global-not-found");
  const framework = new Set(runtime);
  for (const [key, files] of Object.entries(entries))
    if (isFramework(key)) for (const f of files) framework.add(f);
  const layouts = new Set();
  for (const [key, files] of Object.entries(entries))
    if (key !== pageKey && !isFramework(key) && !isOtherDocument(key))
      for (const f of files) if (!framework.has(f)) layouts.add(f);
  const added = [...new Set(entries[pageKey] ?? [])].filter((f) => !framework.has(f) && !layouts.has(f));
  const page = new Set([...framework, ...layouts, ...added]);

  const sizes = new Map([...page].map((f) => [f, gzipSize(dir, f)]));
  const sum = (files) => [...files].reduce((total, f) => total + (sizes.get(f) ?? 0), 0);
  const baselineBytes = sum(framework);
  const pageBytes = sum(page);
  const deltaBytes = pageBytes - baselineBytes;
  return {
    route,
    runtimeBytes: sum(runtime),
    baselineBytes,
    layoutBytes: sum(layouts),
    pageOwnBytes: sum(added),
    pageBytes,
    deltaBytes,
    budgetBytes,
    ok: deltaBytes <= budgetBytes,
    added: [...layouts, ...added].map((file) => ({ file, bytes: sizes.get(file) ?? 0 })),
  };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function main(argv) {
  const arg = (name) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const dir = path.resolve(arg("--dir") ?? path.join(import.meta.dirname, "..", ".next"));
  const route = arg("--route") ?? DEFAULT_ROUTE;
  const budgetKb = Number(arg("--budget-kb") ?? DEFAULT_BUDGET_BYTES / 1024);
  let result;
  try {
    result = firstLoad({ dir, route, budgetBytes: budgetKb * 1024 });
  } catch (error) {
    console.error(`first-load-js: ${error instanceof Error ? error.message : error} (run after next build)`);
    return 2;
  }
  console.log(`First-load JS of ${route} (gzip)`);
  console.log(`  framework runtime (rootMainFiles)             ${kb(result.runtimeBytes)}`);
  console.log(`  framework baseline page (+ Next's boundaries) ${kb(result.baselineBytes)}`);
  console.log(`  our layouts (shell, providers, guards)        ${kb(result.layoutBytes)}`);
  console.log(`  the page's own chunks                         ${kb(result.pageOwnBytes)}`);
  console.log(`  page total                                    ${kb(result.pageBytes)}`);
  console.log(
    `  above the framework baseline                  ${kb(result.deltaBytes)} (budget ${kb(result.budgetBytes)})`,
  );
  for (const { file, bytes } of result.added) console.log(`    + ${file} ${kb(bytes)}`);
  if (!result.ok) {
    console.error(
      `first-load-js: ${route} adds ${kb(result.deltaBytes)}, over the ${kb(result.budgetBytes)} budget`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
