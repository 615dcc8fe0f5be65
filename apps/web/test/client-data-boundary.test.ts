import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const LIBRARY = "@tanstack/react-query";

/** Our modules a file imports (statically or with `import()`), resolved to files. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
    const spec = match[1] ?? "";
    const target = spec.startsWith("@/")
      ? path.join(root, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(file), spec)
        : null;
    if (target && /\.(tsx?|mts)$/.test(target) && existsSync(target)) out.push(target);
  }
  return out;
}

/** Every file of ours a page loads, and which of them import the client data library. */
function usersOfLibrary(entries: string[]): string[] {
  const seen = new Set<string>();
  const users: string[] = [];
  const stack = entries.map((e) => path.join(root, e));
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (readFileSync(file, "utf8").includes(`"${LIBRARY}"`)) users.push(path.relative(root, file));
    stack.push(...importsOf(file));
  }
  return users;
}

const shell = ["app/[locale]/layout.tsx", "app/[locale]/(site)/layout.tsx"];

describe("the client data library stays off the buyer pages (decision 026)", () => {
  it.each([
    "app/[locale]/(site)/v/[token]/page.tsx",
    "app/[locale]/(site)/app/links/[token]/page.tsx",
    "app/[locale]/(site)/checkout/[token]/page.tsx",
    "app/[locale]/(site)/order/[token]/page.tsx",
    "app/[locale]/(site)/app/creator/[id]/page.tsx",
    "app/[locale]/(site)/c/[id]/page.tsx",
    "app/[locale]/(site)/purchases/page.tsx",
    "app/[locale]/(site)/purchases/open/[token]/page.tsx",
    "app/[locale]/(site)/purchases/library/page.tsx",
  ])("%s and the shell import no module that loads it", (page) => {
    expect(usersOfLibrary([...shell, page])).toEqual([]);
  });

  it("the dashboards get it, through their frame", () => {
    const users = usersOfLibrary(["app/[locale]/account/(dashboard)/layout.tsx"]);
    expect(users).toContain("components/ui/query-provider.tsx");
    expect(usersOfLibrary(["app/[locale]/admin/layout.tsx"])).toContain("components/ui/query-provider.tsx");
  });
});
