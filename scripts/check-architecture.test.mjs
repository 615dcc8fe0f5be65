// Unit tests of the architecture check's rules (node:test, no dependency): each rule must catch what
// it guards and leave alone what it does not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findCycles, importsOf, layerViolations, stripComments } from "./check-architecture.mjs";

const rules = (file, source) => layerViolations(file, source).map((v) => `${v.line} ${v.rule}`);
const api = (p) => `apps/api/src/modules/${p}`;

test("a transaction opened in a route file is a violation, in a service it is not", () => {
  const source = "const a = 1;\nawait deps.db.transaction(async (t) => t);\n";
  assert.deepEqual(rules(api("x/routes.ts"), source), ["2 route-transaction"]);
  assert.deepEqual(rules(api("x/admin-routes.ts"), source), ["2 route-transaction"]);
  assert.deepEqual(rules(api("x/routes/list.ts"), source), ["2 route-transaction"]);
  assert.deepEqual(rules(api("x/service.ts"), source), []);
});

test("route files import neither drizzle-orm nor the schema, types included", () => {
  const source = [
    'import { eq } from "drizzle-orm";',
    'import { alias } from "drizzle-orm/pg-core";',
    'import type { users } from "../../db/schema/index.ts";',
    'import { orders } from "../../db/schema/orders.ts";',
    'import type { Db } from "../../db/client.ts";',
  ].join("\n");
  assert.deepEqual(rules(api("x/routes.ts"), source), [
    "1 route-imports-db",
    "2 route-imports-db",
    "3 route-imports-db",
    "4 route-imports-db",
  ]);
  assert.deepEqual(rules(api("x/service.ts"), source), []);
});

test("query-builder calls belong in queries files, however the chain is written", () => {
  const source = [
    "const rows = await db",
    "  .select()",
    "  .from(t);",
    "await tx.insert(t).values(v);",
    "await deps.db.delete(t);",
    "const [row] = await (options.db ?? this.db)",
    "  .update(t);",
    "await this.options.db.execute(q);",
  ].join("\n");
  assert.deepEqual(rules(api("x/service.ts"), source), [
    "1 query-outside-queries",
    "4 query-outside-queries",
    "5 query-outside-queries",
    "6 query-outside-queries",
    "8 query-outside-queries",
  ]);
  for (const file of [api("x/queries.ts"), api("x/queries/a.ts"), api("x/link-queries.ts")])
    assert.deepEqual(rules(file, source), [], file);
  for (const file of [
    "apps/api/src/db/client.ts",
    "apps/api/src/seed.ts",
    "apps/api/src/providers/mail/outbox.ts",
  ])
    assert.deepEqual(rules(file, source), [], file);
});

test("maps, hashes and comments are not queries", () => {
  const source = [
    "cache.delete(key);",
    "hash.update(data);",
    "this.entries.delete(k);",
    "// db.select() in a comment",
    "/* tx.update(t) */",
    'const s = "https://example.com/a"; // db.delete(',
  ].join("\n");
  assert.deepEqual(rules(api("x/service.ts"), source), []);
});

test("comments are blanked without moving lines; strings and template literals stay", () => {
  // A template literal holding "//" in and around its placeholder (built so the linter sees no placeholder).
  const template = ["`x $", '{"//"} // y` f'].join("");
  const source = `a // b\n/* c\nd */ e ${template}`;
  const stripped = stripComments(source);
  assert.equal(stripped.split("\n").length, source.split("\n").length);
  assert.ok(!stripped.includes("b") && !stripped.includes("c") && !stripped.includes("d"));
  assert.ok(stripped.endsWith(template));
});

test("static imports and re-exports count, type-only included; import() does not", () => {
  const code = [
    'import type { A } from "./a.ts";',
    'export * from "./b.ts";',
    'export { c } from "./c.ts";',
    'import "./d.css";',
    "import {",
    "  e,",
    '} from "./e.ts";',
    'const f = () => import("./f.ts");',
  ].join("\n");
  assert.deepEqual(
    importsOf(code).map((i) => `${i.line} ${i.specifier}`),
    ["1 ./a.ts", "2 ./b.ts", "3 ./c.ts", "4 ./d.css", "7 ./e.ts"],
  );
});

test("import cycles are found, once each, at the import that closes them", () => {
  const graph = new Map([
    ["a", [{ to: "b", line: 1 }]],
    ["b", [{ to: "c", line: 2 }]],
    ["c", [{ to: "a", line: 3 }]],
    ["d", [{ to: "a", line: 4 }]],
    ["e", [{ to: "e", line: 5 }]],
  ]);
  assert.deepEqual(findCycles(graph), [
    { file: "c", line: 3, path: ["a", "b", "c", "a"] },
    { file: "e", line: 5, path: ["e", "e"] },
  ]);
  const acyclic = new Map([
    ["a", [{ to: "b", line: 1 }]],
    ["b", []],
    [
      "c",
      [
        { to: "a", line: 1 },
        { to: "b", line: 2 },
      ],
    ],
  ]);
  assert.deepEqual(findCycles(acyclic), []);
});
