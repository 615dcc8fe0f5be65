// Bundles the API into dist/server.js (workspace code inlined, npm packages left external) and
// copies the SQL migrations beside it.
import { cp, rm } from "node:fs/promises";
import { build } from "esbuild";

// Paths below are relative to this package, wherever the script is started from.
const here = new URL(".", import.meta.url).pathname;
process.chdir(here);

await rm("dist", { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: ["src/server.ts"],
  outfile: "dist/server.js",
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
});
await cp("src/db/migrations", "dist/migrations", { recursive: true });
console.log("api built: dist/server.js");
