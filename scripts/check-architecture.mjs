// `npm test`'s architecture check (issue 18, decision 025): the module layout of docs/code-style.md is
// kept by a script rather than by review. Plain Node, no dependency, so it runs before install too.
//
// Rules (each violation prints as `file:line rule (detail)`; any violation exits 1):
//   route-transaction   no `.transaction(` in an API route file: transactions belong to a service
//   route-imports-db    API route files import neither `drizzle-orm` nor `db/schema`
//   query-outside-queries  drizzle query-builder calls (`.select(`, `.selectDistinct(`, `.insert(`,
//                       `.update(`, `.delete(`, `.execute(` on a `db`/`tx` value) only in queries files
//                       and the infrastructure listed in SQL_BY_NATURE
//   import-cycle        no cycle among the static imports (`import type` included) of apps/api/src,
//                       nor among apps/web's (`@/` is apps/web/)
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Files whose SQL is their whole point, outside any module's queries file. */
export const SQL_BY_NATURE = [
  { pattern: /^apps\/api\/src\/db\//, reason: "the schema, the client and migrations are SQL" },
  { pattern: /^apps\/api\/src\/seed[^/]*\.ts$/, reason: "the demo seed writes rows in bulk, once" },
  {
    pattern: /^apps\/api\/src\/providers\/mail\/outbox\.ts$/,
    reason: "the sandbox mail provider's own store: the outbox table is its mailbox",
  },
];

/**
 * PENDING: files that still broke a rule when the check was introduced, while other changes of issue 18
 * were converting their modules. Nothing may be added here; the lead removes entries as modules
 * reach three layers. The check prints the entries that no longer violate so they can go.
 */
export const PENDING = [];

const ROUTE_FILE = /(^|\/)(routes\.ts|[^/]+-routes\.ts|routes\/[^/]+\.ts)$/;
const QUERIES_FILE = /(^|\/)(queries\.ts|[^/]+-queries\.ts|queries\/[^/]+\.ts)$/;
// The receiver is the last name before the call: every database handle of the API is called `db` or
// `tx` (`deps.db`, `this.options.db`, `(options.db ?? this.db)` included), which keeps `map.delete(`
// and `hash.update(` out. A handle under another name would escape: name it `db` or `tx`.
const QUERY_CALL =
  /(?<![\w$])(db|tx)\s*\)?\s*\.\s*(select|selectDistinct|insert|update|delete|execute)\s*\(/g;

/**
 * The source with comments blanked (line breaks kept, so offsets give the right line). Strings stay:
 * import specifiers are strings. Template literals are followed through their `${…}`.
 */
export function stripComments(source) {
  let out = "";
  let i = 0;
  const templates = []; // brace depth of each open `${` of a template literal
  let braces = 0;
  const blank = (text) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (c === "`" || (c === "}" && templates.length && templates.at(-1) === braces)) {
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{"))
        j += source[j] === "\\" ? 2 : 1;
      if (source[j] === "$") {
        templates.push(braces);
        out += source.slice(i, j + 2);
        i = j + 2;
      } else {
        out += source.slice(i, j + 1);
        i = j + 1;
      }
    } else {
      if (c === "{") braces++;
      else if (c === "}") braces--;
      out += c;
      i++;
    }
  }
  return out;
}

const lineOf = (code, index) => code.slice(0, index).split("\n").length;

/** Static imports and re-exports (`import type` included; `import()` is not: it loads later). */
export function importsOf(code) {
  const found = [];
  const re = /(?:^|[;\n}])\s*(?:import|export)\s+(?:[^;"'`]*?\s+from\s+)?(["'])([^"'\n]+)\1/g;
  for (const m of code.matchAll(re)) {
    const at = m.index + m[0].lastIndexOf(m[1] + m[2]);
    found.push({ specifier: m[2], line: lineOf(code, at) });
  }
  return found;
}

/** The layer rules of one API file; `file` is relative to the repository's root. */
export function layerViolations(file, source) {
  const code = stripComments(source);
  const violations = [];
  if (ROUTE_FILE.test(file)) {
    for (const m of code.matchAll(/\.transaction\s*\(/g))
      violations.push({ file, line: lineOf(code, m.index), rule: "route-transaction" });
    for (const { specifier, line } of importsOf(code))
      if (/^drizzle-orm(\/|$)/.test(specifier) || /(^|\/)db\/schema(\/|\.ts$|$)/.test(specifier))
        violations.push({ file, line, rule: "route-imports-db", detail: specifier });
  }
  if (!QUERIES_FILE.test(file) && !SQL_BY_NATURE.some(({ pattern }) => pattern.test(file))) {
    for (const m of code.matchAll(QUERY_CALL))
      violations.push({
        file,
        line: lineOf(code, m.index),
        rule: "query-outside-queries",
        detail: `${m[1]}.${m[2]}(`,
      });
  }
  return violations;
}

/**
 * Every cycle of a graph `file → [{ to, line }]`, one per strongly connected component of more than
 * one file (or a file importing itself), reported at the import that closes it.
 */
export function findCycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  const visit = (start) => {
    // Iterative Tarjan: a deep import chain must not overflow the call stack.
    const work = [{ node: start, edge: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work.at(-1);
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const { to } = edges[frame.edge++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work.at(-1).node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).some((e) => e.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(new Set(component));
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);

  return components.map((members) => {
    // A shortest path back to the smallest member names the cycle the way a reader follows it.
    const first = [...members].sort()[0];
    const previous = new Map([[first, null]]);
    const queue = [first];
    let closing = null;
    while (queue.length && !closing) {
      const node = queue.shift();
      for (const edge of graph.get(node) ?? []) {
        if (!members.has(edge.to)) continue;
        if (edge.to === first) {
          closing = { from: node, line: edge.line };
          break;
        }
        if (!previous.has(edge.to)) {
          previous.set(edge.to, node);
          queue.push(edge.to);
        }
      }
    }
    const chain = [first];
    for (let n = closing.from; n !== first; n = previous.get(n)) chain.splice(1, 0, n);
    return { file: closing.from, line: closing.line, path: [...chain, first] };
  });
}

function listFiles(dir, accept) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (["node_modules", ".next", "dist", "data", "migrations"].includes(entry.name)) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (accept(entry.name)) files.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  walk(path.join(root, dir));
  return files.sort();
}

/** Resolves an import to a file of the set, the way TypeScript would (explicit extension or index). */
function resolveImport(from, specifier, files, aliasRoot) {
  let base;
  if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else if (aliasRoot && specifier.startsWith("@/")) base = path.posix.join(aliasRoot, specifier.slice(2));
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  if (base.endsWith(".js")) candidates.push(base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"));
  return candidates.find((c) => files.has(c)) ?? null;
}

function importGraph(files, sources, aliasRoot) {
  const set = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const edges = [];
    for (const { specifier, line } of importsOf(stripComments(sources.get(file)))) {
      const to = resolveImport(file, specifier, set, aliasRoot);
      if (to) edges.push({ to, line });
    }
    graph.set(file, edges);
  }
  return graph;
}

export function check() {
  const api = listFiles("apps/api/src", (name) => name.endsWith(".ts"));
  const web = listFiles("apps/web", (name) => /\.tsx?$/.test(name) && !name.endsWith(".d.ts"));
  const sources = new Map([...api, ...web].map((f) => [f, readFileSync(path.join(root, f), "utf8")]));

  const violations = api.flatMap((file) => layerViolations(file, sources.get(file)));
  for (const [files, alias] of [
    [api, null],
    [web, "apps/web"],
  ])
    for (const cycle of findCycles(importGraph(files, sources, alias)))
      violations.push({
        file: cycle.file,
        line: cycle.line,
        rule: "import-cycle",
        detail: cycle.path.join(" → "),
      });
  return violations;
}

const isPending = (v) => PENDING.some((p) => p.file === v.file && p.rule === v.rule);

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const all = check();
  const failing = all.filter((v) => !isPending(v));
  for (const v of failing) console.log(`${v.file}:${v.line} ${v.rule}${v.detail ? ` (${v.detail})` : ""}`);
  const stale = PENDING.filter((p) => !all.some((v) => v.file === p.file && v.rule === p.rule));
  for (const p of stale) console.log(`note: pending ${p.file} ${p.rule} no longer violates: remove it`);
  const waived = all.length - failing.length;
  console.log(
    failing.length
      ? `architecture check: ${failing.length} violation(s)${waived ? `, ${waived} more pending` : ""}`
      : `architecture check: clean${waived ? ` (${waived} pending violation(s) in ${PENDING.length} allowlisted file rule(s))` : ""}`,
  );
  process.exit(failing.length ? 1 : 0);
}
