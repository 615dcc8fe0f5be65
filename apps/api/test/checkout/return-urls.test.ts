import { returnPathSchema } from "@salelink/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, testApp } from "../support/app.ts";

/*
 * Issue 16, item 5 (open redirect), on the API's side. Every link and return URL the API builds
 * (e-mails, the identity check's callback, payment results) starts from WEB_ORIGIN; no route takes
 * one from the client. This test keeps it so: a new field that looks like a return URL fails here
 * until it uses `returnPathSchema` (and is listed below).
 */

/** Field names that carry where to go next. */
const redirectLike = /^(next|continue|return\w*|redirect\w*|callback\w*|\w*url|\w*uri|goto|target|dest\w*)$/i;
/** "METHOD /path field" of fields that take a return path through `returnPathSchema`. */
const checkedFields = new Set<string>();

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
}

function fieldNames(node: SchemaNode | undefined, out: string[] = []): string[] {
  if (!node) return out;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    out.push(name);
    fieldNames(child, out);
  }
  fieldNames(node.items, out);
  for (const list of [node.anyOf, node.oneOf, node.allOf]) for (const n of list ?? []) fieldNames(n, out);
  return out;
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("return URLs given by clients", () => {
  it("no route takes a next, return or callback URL from the client", () => {
    const doc = ctx.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    const found: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const names = [
          ...(op.parameters ?? []).filter((p) => p.in !== "path").map((p) => p.name),
          ...Object.values(op.requestBody?.content ?? {}).flatMap((c) => fieldNames(c.schema)),
        ];
        for (const name of names) {
          const key = `${method.toUpperCase()} ${path} ${name}`;
          if (redirectLike.test(name) && !checkedFields.has(key)) found.push(key);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("the contract's rule for one refuses what leaves the site", () => {
    for (const bad of [
      "/\\evil.example/phish",
      "//evil.example",
      "https://evil.example",
      "/%2fevil.example",
    ]) {
      expect(returnPathSchema.safeParse(bad).success).toBe(false);
    }
    expect(returnPathSchema.safeParse("/account/wallet?identity=done").success).toBe(true);
  });
});
