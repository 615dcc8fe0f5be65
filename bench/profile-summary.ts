/**
 * Where a V8 CPU profile's time went, as text: self time per function and per package, for the
 * `.cpuprofile` files `--api-cpu-prof` makes. `npx tsx profile-summary.ts <file> [top]`.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

/** The package a script belongs to (or "ours", "node", the V8 pseudo-frames by name). */
function packageOf(url: string, functionName: string): string {
  if (url === "") return `(${functionName || "anonymous"})`;
  if (url.startsWith("node:")) return "node";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + "node_modules/".length).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? url);
  }
  return "ours";
}

function summarise(file: string, top: number): void {
  const profile = profileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  // Inclusive time of our own functions: each sample counts once for every one of them on its stack.
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id);
    const micros = profile.timeDeltas[index] ?? 0;
    if (!frame) return;
    total += micros;
    const where = frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/apps\//, "apps/");
    const key = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    const pkg = packageOf(frame.url, frame.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const callFrame = byId.get(at);
      if (!callFrame || packageOf(callFrame.url, callFrame.functionName) !== "ours") continue;
      const name = `${callFrame.functionName || "(anonymous)"} ${callFrame.url.replace(/^.*\/apps\//, "apps/")}`;
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
      seen.add(name);
    }
  });
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  print("By package (self time)", byPackage);
  print("By function (self time)", byFunction);
  print("Our functions (inclusive time)", inclusive);
}

const [file, top] = process.argv.slice(2);
if (!file) {
  console.error("usage: tsx profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
summarise(file, Number(top ?? 30));
