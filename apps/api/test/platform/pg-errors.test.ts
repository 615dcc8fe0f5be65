import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import {
  errorChain,
  isCheckViolation,
  isForeignKeyViolation,
  isRetryableTransaction,
  isUniqueViolation,
  isUnstorableText,
  pgErrorCode,
} from "../../src/lib/pg-errors.ts";
import { dbKind, testDatabase } from "../support/app.ts";

/** The error a statement throws, as the app sees it (drizzle's wrapping included). */
async function refusal(database: Database, statement: ReturnType<typeof sql>): Promise<unknown> {
  try {
    await database.db.execute(statement);
  } catch (err) {
    return err;
  }
  throw new Error("the statement was accepted");
}

describe(`PostgreSQL refusals, as ${dbKind} reports them through drizzle`, () => {
  let database: Database;

  beforeAll(async () => {
    database = await testDatabase();
    await database.db.execute(sql`CREATE TABLE pg_errors_parent (id int PRIMARY KEY)`);
    await database.db.execute(sql`
      CREATE TABLE pg_errors_child (
        id int CONSTRAINT pg_errors_child_pk PRIMARY KEY,
        parent int CONSTRAINT pg_errors_child_parent_fk REFERENCES pg_errors_parent (id),
        amount int CONSTRAINT pg_errors_child_positive CHECK (amount > 0),
        note text
      )`);
    await database.db.execute(sql`CREATE UNIQUE INDEX pg_errors_child_note_idx ON pg_errors_child (note)`);
    await database.db.execute(sql`INSERT INTO pg_errors_parent VALUES (1)`);
    await database.db.execute(sql`INSERT INTO pg_errors_child VALUES (1, 1, 5, 'taken')`);
  });
  afterAll(async () => database?.close());

  it("a unique index, by its name", async () => {
    const err = await refusal(database, sql`INSERT INTO pg_errors_child VALUES (2, 1, 5, 'taken')`);
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, "pg_errors_child_note_idx")).toBe(true);
    expect(isUniqueViolation(err, "pg_errors_child_pk")).toBe(false);
    expect(isUniqueViolation(err, "pg_errors_child_pk", { orUnnamed: true })).toBe(false);
    expect(isCheckViolation(err)).toBe(false);
    expect(pgErrorCode(err)).toBe("23505");
    const pk = await refusal(database, sql`INSERT INTO pg_errors_child VALUES (1, 1, 5, 'other')`);
    expect(isUniqueViolation(pk, "pg_errors_child_pk")).toBe(true);
    expect(isUniqueViolation(pk, "pg_errors_child_note_idx")).toBe(false);
  });

  it("a check constraint and a foreign key", async () => {
    const check = await refusal(database, sql`INSERT INTO pg_errors_child VALUES (3, 1, -1, 'c')`);
    expect(isCheckViolation(check, "pg_errors_child_positive")).toBe(true);
    expect(isCheckViolation(check, "another_check")).toBe(false);
    expect(isUniqueViolation(check)).toBe(false);
    const fk = await refusal(database, sql`INSERT INTO pg_errors_child VALUES (4, 99, 1, 'd')`);
    expect(isForeignKeyViolation(fk, "pg_errors_child_parent_fk")).toBe(true);
    expect(isForeignKeyViolation(fk, "another_fk")).toBe(false);
    expect(isCheckViolation(fk)).toBe(false);
  });

  it("text the database cannot store", async () => {
    const err = await refusal(database, sql`INSERT INTO pg_errors_child VALUES (5, 1, 1, ${"a\u0000b"})`);
    expect(isUnstorableText(err)).toBe(true);
    expect(isUniqueViolation(err)).toBe(false);
  });
});

describe("the shapes an error comes in", () => {
  const driverError = (code: string, constraint?: string) =>
    Object.assign(new Error("refused"), { code, ...(constraint ? { constraint } : {}) });

  it("finds the driver's error under any wrapping, outermost first", () => {
    const inner = driverError("23505", "links_token_idx");
    const wrapped = new Error("Failed query", { cause: new Error("again", { cause: inner }) });
    expect([...errorChain(wrapped)]).toHaveLength(3);
    expect(isUniqueViolation(wrapped, "links_token_idx")).toBe(true);
    // A plain object (not an Error) with a code still counts, as PGlite's messages may be.
    expect(isUnstorableText({ message: "x", cause: { code: "22P05" } })).toBe(true);
    expect(isUniqueViolation(new Error("no code"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation("23505")).toBe(false);
    expect(pgErrorCode(new Error("none"))).toBeUndefined();
  });

  it("a constraint the driver did not name matches only when asked to", () => {
    const unnamed = driverError("23514");
    expect(isCheckViolation(unnamed)).toBe(true);
    expect(isCheckViolation(unnamed, "ledger_balances_never_negative")).toBe(false);
    expect(isCheckViolation(unnamed, "ledger_balances_never_negative", { orUnnamed: true })).toBe(true);
  });

  it("serialization failures and deadlocks may be retried; nothing else", () => {
    expect(isRetryableTransaction(new Error("x", { cause: driverError("40001") }))).toBe(true);
    expect(isRetryableTransaction(driverError("40P01"))).toBe(true);
    expect(isRetryableTransaction(driverError("23505"))).toBe(false);
  });

  it("stops on a cycle", () => {
    const a: { code?: string; cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(isUniqueViolation(a)).toBe(false);
    expect([...errorChain(a)].length).toBeLessThanOrEqual(5);
  });
});
