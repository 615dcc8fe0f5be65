/**
 * Mixed traffic on PostgreSQL: buyers browsing link pages (web app) and link reads (API), purchases
 * (checkout, then the signed sandbox webhook that pays the order), affiliate clicks and a signed-in
 * creator's dashboard reads, all at the same time; each kind is also measured alone, and a bare
 * Fastify route with as many connections as the whole mix, for the ratios.
 */
import { type Campaign, okAnswers, seedCampaigns, storedClicks } from "./clicks.ts";
import { count, log } from "./context.ts";
import { type Measurement, measure, warmUp } from "./load.ts";
import { kinds, signIn, splitConnections, webhooks } from "./mixed-kinds.ts";
import { type Kind, type KindRun, quantile, runKinds } from "./mixed-load.ts";
import type { Options } from "./options.ts";
import type { Server } from "./servers.ts";

export interface Stats {
  /** 2xx answers a second. */
  rate: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50?: number;
  p99?: number;
}

export interface KindSummary extends Stats {
  name: string;
  label: string;
  connections: number;
  /** A purchase's checkout and webhook apart; one part for the other kinds. */
  parts: Array<Stats & { part: string }>;
  statusCodes: Record<string, number>;
}

export interface MixedResult {
  connections: number;
  seconds: number;
  mixed: KindSummary[];
  total: Stats;
  alone: KindSummary[];
  bare: Measurement;
  /** The mixed run's webhook answers by `result` (applied, duplicate, ignored). */
  webhookResults: Record<string, number>;
  campaigns: { alone: Campaign; mixed: Campaign };
  clickCheck?: Array<{
    run: "alone" | "mixed";
    answered: number;
    stored: number;
    inFlight: number;
    ok: boolean;
  }>;
}

function stats(ok: number, non2xx: number, errors: number, seconds: number, latencies: number[]): Stats {
  const p50 = quantile(latencies, 0.5);
  const p99 = quantile(latencies, 0.99);
  return {
    rate: seconds > 0 ? ok / seconds : 0,
    ok,
    non2xx,
    errors,
    ...(p50 === undefined ? {} : { p50 }),
    ...(p99 === undefined ? {} : { p99 }),
  };
}

function summarize(kind: Kind, run: KindRun): KindSummary {
  const all = run.parts.flatMap((p) => p.latencies);
  const ok = run.parts.reduce((sum, p) => sum + p.ok, 0);
  const non2xx = run.parts.reduce((sum, p) => sum + p.non2xx, 0);
  return {
    name: kind.name,
    label: kind.label,
    connections: kind.connections,
    ...stats(ok, non2xx, run.errors, run.seconds, all),
    parts: run.parts.map((p) => ({ part: p.part, ...stats(p.ok, p.non2xx, 0, run.seconds, p.latencies) })),
    statusCodes: run.statusCodes,
  };
}

const ms = (v: number | undefined) => (v === undefined ? "—" : v.toFixed(1));
const describe = (s: KindSummary) =>
  `${s.name} (${s.connections} conn.): ${count.format(s.rate)} req/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, non-2xx ${s.non2xx}, errors ${s.errors}`;

export async function runMixed(
  options: Options,
  servers: { web: Server; api: Server; bare: Server },
  databaseUrl: string,
): Promise<MixedResult> {
  const { web, api, bare } = servers;
  const split = splitConnections(options.connections);
  const cookie = await signIn(api);
  const [aloneCampaign, mixedCampaign, warmCampaign] = await seedCampaigns(databaseUrl, [
    "mixed_alone",
    "mixed",
    "mixed_warm",
  ]);
  if (!aloneCampaign || !mixedCampaign || !warmCampaign)
    throw new Error("Could not create the click campaigns");
  log(
    `  connections: ${Object.entries(split)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );

  if (options.warmup > 0) {
    log(`  warm-up: every kind at once for ${options.warmup} s ...`);
    await runKinds(kinds(web, api, split, cookie, warmCampaign), options.warmup);
  }

  const alone: KindSummary[] = [];
  for (const kind of kinds(web, api, split, cookie, aloneCampaign)) {
    const [run] = await runKinds([kind], options.duration);
    if (!run) continue;
    const summary = summarize(kind, run);
    alone.push(summary);
    log(`  alone: ${describe(summary)}`);
  }

  webhooks.reset();
  const mixedKinds = kinds(web, api, split, cookie, mixedCampaign);
  log(`  all kinds at once for ${options.duration} s ...`);
  const runs = await runKinds(mixedKinds, options.duration);
  const mixed = mixedKinds.map((kind, i) => summarize(kind, runs[i] as KindRun));
  for (const summary of mixed) log(`  mixed: ${describe(summary)}`);
  const seconds = Math.max(...runs.map((r) => r.seconds));
  const total = stats(
    mixed.reduce((sum, k) => sum + k.ok, 0),
    mixed.reduce((sum, k) => sum + k.non2xx, 0),
    mixed.reduce((sum, k) => sum + k.errors, 0),
    seconds,
    runs.flatMap((r) => r.parts.flatMap((p) => p.latencies)),
  );
  log(
    `  mixed total: ${count.format(total.rate)} req/s, p50 ${ms(total.p50)} ms, p99 ${ms(total.p99)} ms; webhooks: ${JSON.stringify(webhooks.counts)}`,
  );

  const bareLoad = {
    url: `${bare.origin}/bare`,
    headers: {},
    connections: options.connections,
    duration: options.warmup,
  };
  await warmUp(bareLoad);
  const bareRun = await measure(`GET /bare (bare Fastify, ${options.connections} connections)`, {
    ...bareLoad,
    duration: options.duration,
  });
  log(`  ${bareRun.label}: ${count.format(bareRun.requestsPerSecond)} req/s`);

  return {
    connections: options.connections,
    seconds,
    mixed,
    total,
    alone,
    bare: bareRun,
    webhookResults: { ...webhooks.counts },
    campaigns: { alone: aloneCampaign, mixed: mixedCampaign },
  };
}

/**
 * After the API's clean stop: every click answered 204 is stored. A load that ends on time closes its
 * connections with requests in flight, which the API may still count: at most one per connection more.
 */
export async function checkMixedClicks(result: MixedResult, databaseUrl: string): Promise<void> {
  const check: NonNullable<MixedResult["clickCheck"]> = [];
  for (const run of ["alone", "mixed"] as const) {
    const summary = (run === "alone" ? result.alone : result.mixed).find((k) => k.name === "click");
    if (!summary) continue;
    const answered = okAnswers({ statusCodes: summary.statusCodes });
    const { clicks } = await storedClicks(databaseUrl, result.campaigns[run].id);
    const inFlight = clicks - answered;
    check.push({
      run,
      answered,
      stored: clicks,
      inFlight,
      ok: inFlight >= 0 && inFlight <= summary.connections,
    });
    log(
      `mixed: clicks ${run}: ${count.format(answered)} answered 204, ${count.format(clicks)} stored (${inFlight} in flight at the end)`,
    );
  }
  result.clickCheck = check;
}
