#!/usr/bin/env node
// Writes one top-level namespace into the three web message catalogues at once, from a JSON file
// shaped { "en": {...}, "fr": {...}, "es": {...} }. Lets several people add namespaces side by
// side without editing the same lines: each owns its namespace.
//   node scripts/set-messages.mjs <namespace> <file.json>
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [namespace, source] = process.argv.slice(2);
if (!namespace || !source) {
  console.error("usage: node scripts/set-messages.mjs <namespace> <file.json>");
  process.exit(2);
}
const input = JSON.parse(readFileSync(source, "utf8"));
const dir = path.resolve(import.meta.dirname, "../apps/web/messages");
for (const locale of ["en", "fr", "es"]) {
  if (!input[locale] || typeof input[locale] !== "object") {
    console.error(`${source}: no "${locale}" object`);
    process.exit(1);
  }
}
for (const locale of ["en", "fr", "es"]) {
  const file = path.join(dir, `${locale}.json`);
  const messages = JSON.parse(readFileSync(file, "utf8"));
  messages[namespace] = input[locale];
  // Written in place, not renamed over: `next dev` watches the file itself and misses a rename.
  writeFileSync(file, `${JSON.stringify(messages, null, 2)}\n`);
}
console.log(`set "${namespace}" in en, fr and es`);
