/**
 * docs/benchmarks.md: each generated section lives between its markers and is rewritten only when
 * every measurement of its table ran, so a partial run never replaces a full table with a part of it.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ClicksResult } from "./clicks.ts";
import { type CustomersResult, customersSection } from "./customers.ts";
import { type InvoicesResult, invoicesSection } from "./invoices.ts";
import type { LaunchResult } from "./launch.ts";
import { launchSection } from "./launch-report.ts";
import type { LighthousePage } from "./lighthouse.ts";
import type { MixedResult } from "./mixed.ts";
import type { ScenarioName } from "./options.ts";
import type { PartnersResult } from "./partners.ts";
import { partnersSection } from "./partners-report.ts";
import { checkoutSection, foundationSection, markers, type RunInfo, type ScenarioResult } from "./report.ts";
import { clicksSection, lighthouseSection, mixedSection } from "./report-more.ts";
import { type UpdatesResult, updatesSection } from "./updates.ts";

export interface AllResults {
  pairs: ScenarioResult[];
  clicks?: ClicksResult;
  partners?: PartnersResult;
  mixed?: MixedResult;
  launch?: LaunchResult;
  customers?: CustomersResult;
  updates?: UpdatesResult;
  invoices?: InvoicesResult;
  lighthouse?: LighthousePage[];
}

interface Section {
  id: string;
  /** The scenarios of its table: the section is rewritten only when all of them ran. */
  scenarios: ScenarioName[];
  /** Undefined when this run has nothing to show for it. */
  render(info: RunInfo, all: AllResults): string | undefined;
}

const pairSection =
  (render: (info: RunInfo, results: ScenarioResult[]) => string, names: ScenarioName[]) =>
  (info: RunInfo, all: AllResults) =>
    render(
      info,
      all.pairs.filter((r) => names.includes(r.name)),
    );

const foundation: ScenarioName[] = ["api-maintenance", "api-public-link", "web-home", "web-blog", "web-link"];
const checkout: ScenarioName[] = ["api-checkout", "api-webhook"];

const sections: Section[] = [
  { id: "foundation", scenarios: foundation, render: pairSection(foundationSection, foundation) },
  { id: "checkout", scenarios: checkout, render: pairSection(checkoutSection, checkout) },
  {
    id: "clicks",
    scenarios: ["api-clicks"],
    render: (info, all) => (all.clicks ? clicksSection(info, all.clicks) : undefined),
  },
  {
    id: "partners",
    scenarios: ["partners"],
    render: (info, all) => (all.partners ? partnersSection(info, all.partners) : undefined),
  },
  {
    id: "mixed",
    scenarios: ["mixed"],
    render: (info, all) => (all.mixed ? mixedSection(info, all.mixed) : undefined),
  },
  {
    id: "launch",
    scenarios: ["launch"],
    render: (info, all) => (all.launch ? launchSection(info, all.launch) : undefined),
  },
  {
    id: "customers",
    scenarios: ["customers"],
    render: (info, all) => (all.customers ? customersSection(info, all.customers) : undefined),
  },
  {
    id: "updates",
    scenarios: ["updates"],
    render: (info, all) => (all.updates ? updatesSection(info, all.updates) : undefined),
  },
  {
    id: "invoices",
    scenarios: ["invoices"],
    render: (info, all) => (all.invoices ? invoicesSection(info, all.invoices) : undefined),
  },
  {
    id: "lighthouse",
    scenarios: ["lighthouse"],
    render: (info, all) => (all.lighthouse ? lighthouseSection(info, all.lighthouse) : undefined),
  },
];

/** Puts a section between its markers, or appends it (before a trailing "## History", if any). */
function replaceSection(content: string, id: string, section: string): string {
  const { start, end } = markers(id);
  const from = content.indexOf(start);
  const to = content.indexOf(end);
  if (from !== -1 && to > from) return content.slice(0, from) + section + content.slice(to + end.length);
  const history = content.indexOf("\n## History");
  if (history !== -1) {
    return `${content.slice(0, history).trimEnd()}\n\n${section}\n${content.slice(history)}`;
  }
  return `${content.trimEnd()}\n\n${section}\n`;
}

/**
 * Rewrites, between its markers, each section whose measurements all ran, keeping whatever else the
 * file holds; `ran` are the scenarios that were measured in full (none skipped or failed).
 */
export async function writeDocs(
  file: string,
  info: RunInfo,
  all: AllResults,
  ran: Set<ScenarioName>,
): Promise<{ written: string[]; kept: Array<{ section: string; reason: string }> }> {
  const written: string[] = [];
  const kept: Array<{ section: string; reason: string }> = [];
  let content = existsSync(file) ? await readFile(file, "utf8") : "# Benchmarks\n";
  for (const section of sections) {
    const missing = section.scenarios.filter((name) => !ran.has(name));
    if (missing.length === section.scenarios.length) continue;
    if (missing.length > 0) {
      kept.push({ section: section.id, reason: `not measured in this run: ${missing.join(", ")}` });
      continue;
    }
    const text = section.render(info, all);
    if (text === undefined) continue;
    content = replaceSection(content, section.id, text);
    written.push(section.id);
  }
  if (written.length === 0) return { written, kept };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return { written, kept };
}
