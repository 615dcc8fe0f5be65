// Bundles the API into dist/server.js (bundle.mjs) and copies the SQL migrations beside it.
import { cp, rm } from "node:fs/promises";
import { bundleServer } from "./bundle.mjs";

// Paths below are relative to this package, wherever the script is started from.
process.chdir(new URL(".", import.meta.url).pathname);

await rm("dist", { recursive: true, force: true });
await bundleServer({ outfile: "dist/server.js" });
await cp("src/db/migrations", "dist/migrations", { recursive: true });
console.log("api built: dist/server.js");
