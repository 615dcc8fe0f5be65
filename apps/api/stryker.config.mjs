// @ts-check
// `npm run mutation`: Stryker mutates the pure money and tax rules and reruns their unit tests
// (vitest.mutation.config.ts) against each mutant. Not part of `npm test`: a run takes minutes.
// Narrow it with `npx stryker run --mutate src/modules/tax/rules.ts`.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // `related` (the default): only the test files that import a mutated file run, so a narrowed
  // `--mutate` runs only its own tests.
  vitest: { configFile: "vitest.mutation.config.ts", related: true },
  mutate: [
    "src/modules/wallet/postings.ts",
    "src/modules/wallet/debt-postings.ts",
    "src/modules/wallet/dispute-postings.ts",
    "src/modules/wallet/payout-postings.ts",
    "src/modules/tax/rules.ts",
    "src/modules/tax/rates.ts",
  ],
  coverageAnalysis: "perTest",
  // Two cores shared with other work.
  concurrency: 1,
  reporters: ["clear-text", "html", "json", "progress"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false },
  // The default `.stryker-tmp`: a deeper folder breaks the sandbox's rewritten tsconfig `extends`.
  tempDirName: ".stryker-tmp",
  // No `thresholds.break` yet: the scores are reported, not enforced.
};
