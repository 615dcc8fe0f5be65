import { defineConfig } from "vitest/config";

// Stryker's lane (`npm run mutation`, stryker.config.mjs): only the pure unit tests of the rules it
// mutates, no database, no app, so each mutant reruns in milliseconds. Not part of `npm test`, which
// runs these files through vitest.config.ts like every other.
export default defineConfig({
  test: {
    include: [
      "test/tax/rates.test.ts",
      "test/tax/rules.test.ts",
      "test/tax/split.test.ts",
      "test/tax/*-pins.test.ts",
      "test/wallet/postings.test.ts",
      "test/wallet/postings-*.test.ts",
    ],
    pool: "forks",
  },
});
