/**
 * Shortcut for the affiliate clicks scenario of the suite: `npm run bench:clicks -w @salelink/bench`
 * runs `run.ts --only api-clicks --write-docs` (its own docs section, as before it joined the suite;
 * `--no-write-docs` still wins), other flags passed on.
 */
process.argv.push("--only", "api-clicks", "--write-docs");
await import("./run.ts");
