/** The launch scenario in the console and in its section of docs/benchmarks.md. */
import { count } from "./context.ts";
import { type LaunchResult, launchGoals, launchSizes } from "./launch.ts";
import type { LoadRun } from "./launch-load.ts";
import type { PaymentPhase } from "./launch-phases.ts";
import { markers, type RunInfo } from "./report.ts";
import { machineParagraph, markdownTable } from "./report-more.ts";

type Verdict = "PASS" | "FAIL" | "INVALID" | "REPORTED";

const rate = (v: number) => count.format(v);
const ms = (v: number | undefined) => (v === undefined ? "—" : v < 10 ? v.toFixed(1) : count.format(v));
const ratioText = (r: number) => (!Number.isFinite(r) ? "—" : r < 0.1 ? r.toPrecision(2) : r.toFixed(2));
const clean = (run: LoadRun) => run.non2xx === 0 && run.errors === 0 && run.ok > 0;

interface Line {
  what: string;
  run: LoadRun;
  /** The rate reported: 2xx answers a second, or payments applied a second. */
  value: number;
  baseline: LoadRun;
  goal: string;
  verdict: Verdict;
}

function judged(run: LoadRun, met: boolean | undefined): Verdict {
  if (!clean(run)) return "INVALID";
  if (met === undefined) return "REPORTED";
  return met ? "PASS" : "FAIL";
}

function lines(r: LaunchResult): Line[] {
  const { baselines: b, checkouts: c, payments: p } = r;
  const g = launchGoals;
  const pay = (phase: PaymentPhase, goal: boolean): Line => ({
    what: `Payments applied, ${phase.creators === 1 ? "one creator" : `${phase.creators} creators`} (${count.format(phase.deliveries)} deliveries, ${count.format(phase.events)} events)`,
    run: phase.webhooks,
    value: phase.appliedRate,
    baseline: b.payment,
    goal: goal ? `≥ ${count.format(g.paymentsPerSecond)}/s` : "reported",
    verdict: judged(phase.webhooks, goal ? phase.appliedRate >= g.paymentsPerSecond : undefined),
  });
  const during = (phase: PaymentPhase): Line[] => [
    {
      what: `Clicks during the payments of ${phase.creators === 1 ? "one creator" : `${phase.creators} creators`}`,
      run: phase.clicks,
      value: phase.clicks.rate,
      baseline: b.click,
      goal: `≥ ${g.clickRatio} of bare`,
      verdict: judged(phase.clicks, phase.clicks.rate >= g.clickRatio * b.click.rate),
    },
    {
      what: `Dashboard reads during the payments of ${phase.creators === 1 ? "one creator" : `${phase.creators} creators`}`,
      run: phase.dashboard,
      value: phase.dashboard.rate,
      baseline: b.read,
      goal: "reported",
      verdict: judged(phase.dashboard, undefined),
    },
  ];
  return [
    {
      what: `Checkouts, link limited to ${count.format(r.stock)}`,
      run: c.limited,
      value: c.limited.rate,
      baseline: b.checkout,
      goal: `≥ ${count.format(g.checkoutsPerSecond)}/s`,
      verdict: judged(c.limited, c.limited.rate >= g.checkoutsPerSecond),
    },
    {
      what: "Checkouts, unlimited link",
      run: c.open,
      value: c.open.rate,
      baseline: b.checkout,
      goal: "reported",
      verdict: judged(c.open, undefined),
    },
    {
      what: "Checkouts, 100 creators' links",
      run: c.many,
      value: c.many.rate,
      baseline: b.checkout,
      goal: "reported",
      verdict: judged(c.many, undefined),
    },
    pay(p.one, true),
    pay(p.many, false),
    ...during(p.one),
    ...during(p.many),
  ];
}

function readVerdict(run: LoadRun, bare: LoadRun): Verdict {
  return judged(
    run,
    run.p99 !== undefined && run.p99 < launchGoals.readP99Ms && run.rate >= launchGoals.readRatio * bare.rate,
  );
}

/** The console's lines: every rate with its ratio and verdict, the reads at scale, the checks. */
export function launchSummary(r: LaunchResult): string[] {
  return [
    ...lines(r).map(
      (l) =>
        `launch: ${l.what}: ${rate(l.value)}/s (p99 ${ms(l.run.p99)} ms, non-2xx ${l.run.non2xx}, errors ${l.run.errors}), bare ${rate(l.baseline.rate)}/s, ratio ${ratioText(l.value / l.baseline.rate)}, goal ${l.goal}: ${l.verdict}`,
    ),
    ...r.scale.reads.map(
      (run) =>
        `launch: ${run.label} with ${count.format(r.scale.orders)} orders: ${rate(run.rate)}/s, p99 ${ms(run.p99)} ms, ratio ${ratioText(run.rate / r.baselines.read.rate)}: ${readVerdict(run, r.baselines.read)}`,
    ),
    ...r.checks.map((c) => `launch: check ${c.name}: ${c.ok ? "ok" : "FAIL"} (${c.detail})`),
    `launch: ${r.pass ? "PASS (every check held)" : "FAIL (a check failed)"}`,
  ];
}

export function launchSection(info: RunInfo, r: LaunchResult): string {
  const { start, end } = markers("launch");
  const rates = markdownTable(
    [
      "Measured",
      "per s",
      "p50 (ms)",
      "p99 (ms)",
      "non-2xx",
      "errors",
      "bare per s",
      "ratio",
      "goal",
      "result",
    ],
    lines(r).map((l) => [
      l.what,
      rate(l.value),
      ms(l.run.p50),
      ms(l.run.p99),
      count.format(l.run.non2xx),
      count.format(l.run.errors),
      rate(l.baseline.rate),
      ratioText(l.value / l.baseline.rate),
      l.goal,
      `**${l.verdict}**`,
    ]),
    new Set([1, 2, 3, 4, 5, 6, 7]),
  );
  const reads = markdownTable(
    ["Read (alone)", "req/s", "p50 (ms)", "p99 (ms)", "non-2xx", "ratio", "goal", "result"],
    r.scale.reads.map((run) => [
      run.label,
      rate(run.rate),
      ms(run.p50),
      ms(run.p99),
      count.format(run.non2xx + run.errors),
      ratioText(run.rate / r.baselines.read.rate),
      `p99 < ${launchGoals.readP99Ms} ms, ≥ ${launchGoals.readRatio}`,
      `**${readVerdict(run, r.baselines.read)}**`,
    ]),
    new Set([1, 2, 3, 4, 5]),
  );
  const checks = r.checks.map((c) => `- ${c.ok ? "ok" : "**FAIL**"}: ${c.name}: ${c.detail}.`).join("\n");
  const activity = [r.payments.one, r.payments.many]
    .filter((p) => p.activity)
    .map((p) => `- ${p.label}: ${p.activity}.`)
    .join("\n");
  const { connections: n } = r;
  const size = launchSizes(r.stock);
  return `${start}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Launch day: one creator's drop of ${count.format(r.stock)} sales

${machineParagraph(info)} ${r.instances === 1 ? "One API instance" : `${r.instances} API instances (same PostgreSQL and Redis, the load split evenly between them)`};
connections: ${n.payments} for checkouts and payments, ${n.clicks} for clicks, ${n.reads} for dashboard reads.

${rates}

The dashboard of a creator with ${count.format(r.scale.orders)} paid orders (seeded in ${r.scale.seedSeconds.toFixed(0)} s; rollups: ${r.scale.rollups}),
each read alone on ${n.reads} connections for ${info.duration} s after ${info.warmup} s of warm-up, against \`GET /bare\` (${rate(r.baselines.read.rate)} req/s):

${reads}

Checks (any failure fails the scenario): **${r.pass ? "all held" : "FAILED"}**

${checks}
${activity ? `\nPostgreSQL connections of the API (pool of 10 each), mean over each payment phase:\n\n${activity}\n` : ""}${r.analyzed ? `\nStatistics: ${r.analyzed}, from the seeding to the end of the payments (otherwise the planner plans a launch's queries for the empty tables it last analyzed).\n` : ""}
How it is measured:

- The launch creator (a link limited to ${count.format(r.stock)}, an unlimited one, a referral campaign),
  ${size.creators} creators with a link limited to ${count.format(r.stock / size.creators)} each, and a warm-up creator: accounts and sessions
  written straight into the bench database, profiles, links and campaigns made through the API. A warm-up of ${info.warmup} s per part (checkouts, their payments, clicks, reads) on the
  warm-up creator precedes the measured phases.
- **Checkouts**: \`POST /stripe/checkout\`, exactly ${count.format(r.stock)} per link, each from a new buyer (own e-mail,
  own address through \`X-Forwarded-For\`, as checkouts are capped per address and e-mail). Then one more on
  the limited link, which must be refused (409). The 100 creators' checkouts (in turn over their links)
  prepare their payment phase.
- **Payments**: one signed \`payment.succeeded\` per order, plus ${count.format(Math.round(r.stock * 0.05))} redeliveries (same event id and
  body, signed again when sent), shuffled, all on ${n.payments} connections. "Payments applied" counts the orders the
  database shows paid over the phase's time (a delivery whose answer took over autocannon's 10 s timeout
  may still have been applied: it counts among the errors, which make the row invalid); its bare baseline is \`POST /bare\` with the same signed bodies.
  While they run, the creator's referral link is clicked (\`PATCH /campaigns/clicks/{token}\`, a new visitor
  each) and their dashboard read (\`/wallet\`, \`/links\`, \`/campaigns\`, \`/campaigns/stats\`, \`/sales/summary\` in
  turn, signed in as them); both stop when the payments end. Clicks compare with \`POST /bare\` with the
  same bodies, reads with \`GET /bare\`, each baseline measured alone on as many connections.
- The 100-creator phase is the same with the ${count.format(r.stock)} sales spread over 100 creators, its clicks on a campaign
  of their own: the difference between the two is what one creator's hot rows cost.
- **Checks**: the API's own \`auditLedger\` (every transaction balanced, every running balance equal to
  its entries, none negative) after the payments and again with the seeded orders; orders paid and sales
  counters; one \`order_paid\` posting per paid order; every event applied exactly once, its redeliveries
  answered 200 \`duplicate\`; every order sent an event paid; clicks answered 204 all stored.
- The dashboard at scale: ${count.format(r.scale.orders)} orders over 90 days inserted with \`generate_series\` with the
  postings of \`orderPaid\` and, past the 7-day hold, \`holdReleased\` (so the audit stays clean), and 90 days
  of clicks on the creator's campaign.
${end}`;
}
