import { configDefaults, defineConfig } from "vitest/config";

// Files that replace a module with `vi.mock` need a module graph of their own; the rest share one
// per worker (`isolate: false`), which halves the suite: each file imported the whole app again, about
// 2 s per file (PGlite lane 350 s → 170 s on 2 cores). Every file still builds its own app and database.
const needsIsolation = ["test/auth/totp.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...needsIsolation],
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: needsIsolation, isolate: true } },
    ],
  },
});
