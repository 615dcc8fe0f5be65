import { readFileSync } from "node:fs";
import path from "node:path";

/** Helpers of the tests that read the message catalogues (messages/{en,fr,es}.json). */
export type Tree = { [key: string]: string | Tree };
export const webRoot = path.resolve(import.meta.dirname, "..");

export const loadCatalogue = (locale: string): Tree =>
  JSON.parse(readFileSync(path.join(webRoot, "messages", `${locale}.json`), "utf8"));

/** Every message by its dotted key. */
export function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}
