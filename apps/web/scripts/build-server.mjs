// Bundles server/main.ts (the web app's server, decision 017) into dist/server.js. Next.js stays an
// external package; the run-time settings module and the contracts it reads are bundled in.
import { build } from "esbuild";

const here = new URL("..", import.meta.url).pathname;

await build({
  absWorkingDir: here,
  entryPoints: ["server/main.ts"],
  outfile: "dist/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  alias: { "@salelink/contracts": "../../packages/contracts/src" },
  plugins: [
    {
      // lib/server-env.ts guards itself against client bundles with `server-only`, which throws
      // outside React's server condition; this bundle only ever runs on the server.
      name: "server-only",
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
        b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "" }));
      },
    },
  ],
  logLevel: "warning",
});
console.log("web server built: dist/server.js");
