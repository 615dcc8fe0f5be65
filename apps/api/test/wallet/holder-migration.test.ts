import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import journal from "../../src/db/migrations/meta/_journal.json" with { type: "json" };
import { rowsOf } from "../../src/modules/wallet/ledger.ts";
import { testDatabase } from "../support/app.ts";

/*
 * Migration 0013 (decision 024) turns `ledger_balances.holder` (text) into `owner_id` (a uuid that
 * references users, like the entries' owner): tested on a database with balances written before it.
 */

const TARGET = "0013_ledger_holder";

let database: Awaited<ReturnType<typeof testDatabase>>;
const run = (text: string) => database.db.execute(sql.raw(text));

async function apply(tag: string) {
  const text = await readFile(new URL(`../../src/db/migrations/${tag}.sql`, import.meta.url), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) {
    if (statement.trim()) await run(statement);
  }
}

const creator = randomUUID();
const referrer = randomUUID();

beforeAll(async () => {
  database = await testDatabase();
  // Back to the schema just before the migration: empty it, then replay every earlier migration.
  await run("drop schema public cascade");
  await run("drop schema if exists drizzle cascade");
  await run("create schema public");
  const target = journal.entries.find((e) => e.tag === TARGET);
  if (!target) throw new Error(`${TARGET} is not in the journal`);
  for (const entry of journal.entries.filter((e) => e.idx < target.idx)) await apply(entry.tag);

  for (const [id, email] of [
    [creator, "creator@example.com"],
    [referrer, "referrer@example.com"],
  ]) {
    await run(`insert into users (id, email, password_hash) values ('${id}', '${email}', 'x')`);
  }
  await run(`insert into ledger_balances (holder, account, currency, balance_minor) values
    ('${creator}', 'available', 'EUR', 1799),
    ('${creator}', 'pending', 'EUR', 0),
    ('${creator}', 'available', 'USD', 5),
    ('${referrer}', 'affiliate_claimable', 'EUR', 40)`);
  await apply(TARGET);
});
afterAll(() => database?.close());

describe("migration 0013: one holder representation", () => {
  it("keeps every balance, now keyed by the owner's uuid", async () => {
    const rows = rowsOf<{ owner: string; account: string; currency: string; balance: string }>(
      await run(
        "select owner_id::text as owner, account, currency, balance_minor::text as balance from ledger_balances",
      ),
    );
    const key = (r: readonly unknown[]) => r.slice(0, 3).join("|");
    const byKey = (x: readonly unknown[], y: readonly unknown[]) => (key(x) < key(y) ? -1 : 1);
    expect(rows.map((r) => [r.owner, r.account, r.currency, Number(r.balance)]).sort(byKey)).toEqual(
      [
        [creator, "available", "EUR", 1799],
        [creator, "available", "USD", 5],
        [creator, "pending", "EUR", 0],
        [referrer, "affiliate_claimable", "EUR", 40],
      ].sort(byKey),
    );
    const [column] = rowsOf<{ type: string; nullable: string }>(
      await run(`select data_type as type, is_nullable as nullable from information_schema.columns
        where table_name = 'ledger_balances' and column_name = 'owner_id'`),
    );
    expect(column).toEqual({ type: "uuid", nullable: "NO" });
  });

  it("refuses a balance of nobody, and a second row for the same account", async () => {
    await expect(
      run(`insert into ledger_balances (owner_id, account, currency, balance_minor)
        values ('${randomUUID()}', 'available', 'EUR', 1)`),
    ).rejects.toThrow();
    await expect(
      run(`insert into ledger_balances (owner_id, account, currency, balance_minor)
        values ('${creator}', 'available', 'EUR', 1)`),
    ).rejects.toThrow();
  });

  it("keeps the overdraft check", async () => {
    await expect(
      run(
        `update ledger_balances set balance_minor = -1 where owner_id = '${creator}' and account = 'available'`,
      ),
    ).rejects.toThrow();
  });
});
