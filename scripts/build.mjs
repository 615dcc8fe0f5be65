// `npm run build`: the API bundle and the web app's production build.
import { run } from "./lib.mjs";

for (const [name, args] of [
  ["api", ["run", "build", "-w", "@salelink/api"]],
  ["web", ["run", "build", "-w", "@salelink/web"]],
]) {
  const code = await run("npm", args);
  if (code !== 0) {
    console.error(`build of ${name} failed`);
    process.exit(code);
  }
}
