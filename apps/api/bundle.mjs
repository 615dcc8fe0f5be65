// The API's esbuild bundle: src/server.ts with workspace code inlined and npm packages left external.
// Used by build.mjs (dist/server.js) and by the fault tests, which bundle their own copy.
import { build } from "esbuild";

const here = new URL(".", import.meta.url).pathname;

/** Bundles the server into `outfile` (relative to apps/api or absolute); `extra` adds esbuild options. */
export function bundleServer({ outfile, ...extra }) {
  return build({
    absWorkingDir: here,
    entryPoints: ["src/server.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    packages: "external",
    // Workspace code is bundled in; subpaths (@salelink/contracts/locales) resolve to its files.
    alias: { "@salelink/contracts": "../../packages/contracts/src" },
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: "warning",
    ...extra,
  });
}
