import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { testDatabase } from "../support/app.ts";

describe.skipIf(!process.env.DATABASE_URL)("migrations on PostgreSQL", () => {
  it("several instances starting at once migrate the same database once", async () => {
    const first = await testDatabase();
    try {
      const url = first.url ?? "";
      // The test database is already migrated; drop the bookkeeping so every opener has work to do.
      await first.db.execute(
        "drop schema public cascade; drop schema if exists drizzle cascade; create schema public" as never,
      );
      const opened = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ url, dataDir: "unused", poolSize: 2 })),
      );
      const rows = await first.db.execute(
        "select count(*)::int as n from drizzle.__drizzle_migrations" as never,
      );
      await Promise.all(opened.map((d) => d.close()));
      const n = (rows as unknown as { rows: { n: number }[] }).rows[0]?.n;
      expect(n).toBeGreaterThan(0);
      const files = (await import("../../src/db/migrations/meta/_journal.json", { with: { type: "json" } }))
        .default.entries.length;
      expect(n).toBe(files);
    } finally {
      await first.close();
    }
  });
});
