import fc from "fast-check";
import type { Req } from "./access-rows.ts";
import type { Route } from "./route-catalogue.ts";

/*
 * Bad requests made from a route's OpenAPI schema and from one valid request of it (the access
 * matrix's): one thing wrong at a time (a field of the wrong type, a hostile string, a field
 * missing or added, a bad path or query parameter), and whole-request faults (malformed JSON,
 * a wrong content type, a body above the limit, multipart tricks on the upload route).
 */

export interface FuzzCase extends Req {
  label: string;
}

/** The part of JSON Schema the OpenAPI document uses for our routes. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  nullable?: boolean;
  enum?: unknown[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  format?: string;
}

export interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
}

/** Fastify's body limit (app.ts): one byte more is refused with 413. */
export const BODY_LIMIT = 1024 * 1024;

/** Strings that have broken servers before: injections, markup, odd Unicode, NUL, paths, length. */
export const hostileStrings: readonly string[] = [
  "' OR '1'='1' --",
  "'; DROP TABLE users; --",
  '{"$gt": ""}',
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "\u202Egnp.exe\u202C",
  "zero\u200Bwidth\u200D\uFEFFjoin",
  "😀👩‍👩‍👧‍👦🏳️‍🌈",
  "lone \uD800 surrogate",
  "\uDFFF",
  "nul\u0000byte",
  "\u0000",
  "../../etc/passwd",
  "..\\..\\x",
  "/etc/passwd",
  "C:\\Windows\\win.ini",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Log4Shell lookup, sent as plain text on purpose
  "${jndi:ldap://127.0.0.1/a}",
  "\r\nSet-Cookie: sid=stolen",
  "%00%2e%2e%2f",
  "ﷺ".repeat(2000),
  "x".repeat(100_000),
  "",
  " ",
];

/** Values for a path segment (already URL-encoded where the raw character would not travel). */
export const hostileSegments: readonly string[] = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "..%2F..%2Fetc%2Fpasswd",
  "..%5C..%5Cx",
  "%2Fetc%2Fpasswd",
  "%00",
  "a%00b",
  "%ZZ",
  "%C0%AE%C0%AE",
  "%F0%9F%98%80",
  "%E2%80%AE",
  "%27%20OR%201%3D1--",
  "%3Cscript%3E",
  "1e400",
  "-1",
  "a".repeat(5000),
];

/** A JSON value of any type but the one the schema asks for. */
function wrongTypes(schema: Schema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const all: Record<string, unknown[]> = {
    string: ["text", "2024-13-45", ""],
    number: [1.5, -1, 1e308, 2 ** 63],
    integer: [1.5, -1, 1e308, 2 ** 63, -(2 ** 63)],
    boolean: [true],
    object: [{}, { nested: { deeper: [1] } }],
    array: [[], [null], Array.from({ length: 1000 }, (_, i) => i)],
    null: [null],
  };
  const out: unknown[] = [];
  for (const [name, values] of Object.entries(all)) {
    if (name === type || (name === "null" && schema.nullable)) continue;
    // An integer is a number too: 1.5 and friends are the wrong values for it.
    if (type === "number" && name === "integer") continue;
    if (type === "integer" && name === "number") continue;
    out.push(...values);
  }
  if (type === "integer" || type === "number") out.push("12", "1e3", "0x10");
  if (type === "boolean") out.push("true", 1, 0);
  return out;
}

/** The object schema of a body: a union's first branch is the one the baseline request follows. */
function objectSchema(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.properties) return schema;
  return objectSchema(schema.oneOf?.[0] ?? schema.anyOf?.[0]);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/** Replaces one path parameter of `base` with `value`. */
function withSegment(route: Route, base: Req, name: string, value: string): string {
  const [path = "", query] = base.url.split("?");
  const template = route.url.split("/");
  const actual = path.split("/");
  const index = template.findIndex((s) => s === `:${name}` || (name === "*" && s === "*"));
  if (index < 0) return base.url;
  const segments =
    name === "*" ? [...actual.slice(0, index), value] : actual.map((s, i) => (i === index ? value : s));
  return `${segments.join("/")}${query ? `?${query}` : ""}`;
}

function withQuery(base: Req, name: string, value: string | string[]): string {
  const [path = "", query = ""] = base.url.split("?");
  const params = new URLSearchParams(query);
  params.delete(name);
  for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  return `${path}?${params.toString()}`;
}

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (as U+FFFD). */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, "0")}`,
    )
    .join("");
}

const jsonHeaders = { "content-type": "application/json" };

/** A random one-thing-wrong request for a route, from its schema and its valid request. */
export function randomCase(route: Route, op: Operation | undefined, base: Req): fc.Arbitrary<FuzzCase> {
  const hostile = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  );
  const options: fc.Arbitrary<FuzzCase>[] = [];
  const pathParams = (op?.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  if (route.url.includes("*")) pathParams.push("*");
  for (const name of new Set(pathParams)) {
    options.push(
      fc.oneof(fc.constantFrom(...hostileSegments), hostile.map(encodeSegment)).map((value) => ({
        ...base,
        label: `path ${name}=${value.slice(0, 60)}`,
        url: withSegment(route, base, name, value),
      })),
    );
  }
  const queryParams = (op?.parameters ?? []).filter((p) => p.in === "query");
  for (const param of queryParams) {
    options.push(
      fc
        .oneof(
          hostile,
          fc.constantFrom("-1", "0", "1.5", "1e400", "true", "null", "[]", "9999999999999999999999"),
          fc.tuple(fc.constant("a"), fc.constant("b")).map((pair) => [...pair]),
        )
        .map((value) => ({
          ...base,
          label: `query ${param.name}=${JSON.stringify(value).slice(0, 60)}`,
          url: withQuery(base, param.name, value),
        })),
    );
  }
  const schema = objectSchema(op?.requestBody?.content["application/json"]?.schema);
  const body = isObject(base.payload) ? base.payload : undefined;
  if (schema?.properties && body) {
    const fields = Object.keys(schema.properties);
    const field = fc.constantFrom(...fields);
    options.push(
      field.chain((name) =>
        fc.constantFrom(...wrongTypes(schema.properties?.[name] ?? {})).map((value) => ({
          ...base,
          label: `field ${name} of the wrong type: ${JSON.stringify(value).slice(0, 60)}`,
          payload: { ...body, [name]: value },
        })),
      ),
      fc.tuple(field, hostile).map(([name, value]) => ({
        ...base,
        label: `field ${name}=${JSON.stringify(value).slice(0, 60)}`,
        payload: { ...body, [name]: value },
      })),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }))
        .map(([name, value]) => ({
          ...base,
          label: `extra field ${JSON.stringify(name)}`,
          payload: { ...body, [name]: value },
        })),
    );
    const required = schema.required ?? [];
    if (required.length > 0) {
      options.push(
        fc.subarray(required, { minLength: 1 }).map((missing) => ({
          ...base,
          label: `missing ${missing.join(", ")}`,
          payload: Object.fromEntries(Object.entries(body).filter(([k]) => !missing.includes(k))),
        })),
      );
    }
  }
  if (options.length === 0) {
    // No parameter and no body: an unknown query parameter is what is left to send.
    options.push(
      hostile.map((value) => ({ ...base, label: "unknown query", url: withQuery(base, "x", value) })),
    );
  }
  return fc.oneof(...options);
}

/** The faults every route with a JSON body gets, whatever the seed. */
export function fixedBodyCases(base: Req): FuzzCase[] {
  const huge = JSON.stringify({ filler: "x".repeat(BODY_LIMIT + 10) });
  return [
    { ...base, label: "malformed JSON", payload: '{"a": ', headers: jsonHeaders },
    { ...base, label: "JSON null", payload: "null", headers: jsonHeaders },
    { ...base, label: "JSON array", payload: "[1,2,3]", headers: jsonHeaders },
    { ...base, label: "JSON string", payload: '"text"', headers: jsonHeaders },
    // Issue 17: an empty body is no body; a route that needs one still refuses it, with a 4xx.
    { ...base, label: "empty body sent as JSON", payload: "", headers: jsonHeaders },
    {
      ...base,
      label: "prototype pollution",
      payload: '{"__proto__": {"role": "admin"}}',
      headers: jsonHeaders,
    },
    {
      ...base,
      label: "deeply nested",
      payload: `${"[".repeat(5000)}${"]".repeat(5000)}`,
      headers: jsonHeaders,
    },
    {
      ...base,
      label: "text/plain",
      payload: JSON.stringify(base.payload ?? {}),
      headers: { "content-type": "text/plain" },
    },
    { ...base, label: "XML", payload: "<a>1</a>", headers: { "content-type": "application/xml" } },
    {
      ...base,
      label: "form-encoded",
      payload: "a=1&b=2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    },
    { ...base, label: "body above the limit", payload: huge, headers: jsonHeaders },
  ];
}

/** Faults of a path parameter every such route gets. */
export function fixedPathCases(route: Route, base: Req): FuzzCase[] {
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? "");
  if (route.url.includes("*")) names.push("*");
  return names.flatMap((name) =>
    ["..%2F..%2F..%2Fetc%2Fpasswd", "%00", "x".repeat(3000)].map((value) => ({
      ...base,
      label: `path ${name}=${value.slice(0, 40)}`,
      url: withSegment(route, base, name, value),
    })),
  );
}
