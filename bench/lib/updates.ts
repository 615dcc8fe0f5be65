/**
 * An update to 100,000 buyers (issue 21, "Performance"): it must be sent in bounded memory, the job
 * streaming the buyers batch by batch. One creator's customers are written with SQL (one in a
 * hundred unsubscribed), an API instance that runs the job worker is started with the sandbox mail
 * provider (the outbox), one update is sent through POST /updates, and its end is awaited while the
 * API process's resident memory is sampled. Reported: total time, mails per second, and the peak RSS
 * against the same process's RSS before the send.
 */

import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { apiDir, apiPoolSize, appSecret, count, log } from "./context.ts";
import type { BenchDatabase } from "./database.ts";
import { insertSession, withPg } from "./launch-seed.ts";
import type { Options } from "./options.ts";
import { freePort, host, type Spawned, start, stop, waitUntilReady } from "./processes.ts";
import { markers, type RunInfo } from "./report.ts";
import { machineParagraph, markdownTable } from "./report-more.ts";
import { readyTimeoutMs } from "./servers.ts";

/** How often the API's memory is read, and the update's progress polled. */
const SAMPLE_MS = 100;
const POLL_MS = 250;
/** One buyer in this many has unsubscribed: skipped and counted, never e-mailed. */
const UNSUBSCRIBED_EVERY = 100;
/**
 * What the send may add to the API's resident memory: a batch's rows and messages, never the whole
 * audience (100,000 rendered e-mails alone would take several hundred MiB).
 */
export const RSS_GROWTH_BOUND_MIB = 256;

export interface UpdatesResult {
  buyers: number;
  seedSeconds: number;
  recipients: number;
  sent: number;
  failed: number;
  unsubscribed: number;
  /** Mails the outbox holds for the update: every sent one, once. */
  stored: number;
  seconds: number;
  mailsPerSecond: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  pass: boolean;
}

/** Seconds the scenario may take, for the run's watchdog: the seeding, the start and the send. */
export function updatesSeconds(options: Options): number {
  return Math.ceil(options.updatesBuyers / 200) + 120;
}

async function seedBuyers(databaseUrl: string, buyers: number) {
  const started = Date.now();
  const run = randomBytes(3).toString("hex");
  return withPg(databaseUrl, async (client) => {
    await client.query("begin");
    const user = await client.query(
      `insert into users (email, password_hash, email_verified_at, onboarding_completed_at)
       values ($1, 'not-a-password-hash', now(), now()) returning id`,
      [`bench-updates-${run}@example.com`],
    );
    const creatorId = String(user.rows[0]?.id);
    await client.query(
      `insert into creator_profiles (owner_id, display_name, handle) values ($1, 'Bench creator', $2)`,
      [creatorId, `bench_updates_${run}`],
    );
    await client.query(
      `insert into customers (creator_id, email, first_paid_at, last_paid_at, orders_count, unsubscribed_at)
       select $1, 'buyer-' || $2 || '-' || g || '@example.com', now() - interval '1 day',
         now() - interval '1 day', 1, case when g % $4::int = 0 then now() end
       from generate_series(1, $3::int) g`,
      [creatorId, run, buyers, UNSUBSCRIBED_EVERY],
    );
    const cookie = await insertSession(client, creatorId);
    await client.query("commit");
    await client.query("vacuum analyze customers");
    return { creatorId, cookie, seconds: (Date.now() - started) / 1000 };
  });
}

/** An API instance of its own that runs the job worker (the others run none), with the outbox. */
async function startJobsApi(options: Options, database: BenchDatabase, uploadsDir: string) {
  const port = await freePort();
  const spawned = start("api-jobs", process.execPath, ["dist/server.js"], {
    cwd: options.apiDir ?? apiDir,
    env: {
      NODE_ENV: "development",
      COOKIE_SECURE: "true",
      DOCS_ENABLED: "false",
      DEV_ROUTES: "false",
      API_HOST: host,
      API_PORT: String(port),
      API_PUBLIC_URL: `http://${host}:${port}`,
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      APP_SECRET: appSecret,
      JOBS_ENABLED: "true",
      MAIL_PROVIDER: "outbox",
      SHUTDOWN_DRAIN_MS: "0",
      METRICS_PORT: "off",
      DATABASE_POOL_SIZE: String(apiPoolSize),
      DATABASE_URL: undefined,
      DATA_DIR: undefined,
      REDIS_URL: undefined,
      UPLOADS_DIR: uploadsDir,
      ...database.env,
    },
    echo: options.verbose,
  });
  const origin = `http://${host}:${port}`;
  await waitUntilReady(spawned, `${origin}/maintenance`, {}, readyTimeoutMs);
  log(`${spawned.name} ready on ${origin}`);
  return { spawned, origin };
}

/** The process's resident set in MiB (Linux), or 0 when it cannot be read. */
async function rssMiB(spawned: Spawned): Promise<number> {
  const pid = spawned.child.pid;
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

interface UpdateView {
  id: string;
  status: "sending" | "sent";
  recipients: number;
  sent: number;
  failed: number;
  unsubscribed: number;
}

export async function runUpdates(
  options: Options,
  database: BenchDatabase,
  uploadsDir: string,
): Promise<UpdatesResult> {
  const databaseUrl = database.env.DATABASE_URL ?? "";
  log(`  seeding ${count.format(options.updatesBuyers)} customers of one creator ...`);
  const seed = await seedBuyers(databaseUrl, options.updatesBuyers);
  log(`  seeded in ${seed.seconds.toFixed(1)} s`);
  const api = await startJobsApi(options, database, uploadsDir);
  try {
    // Settled: the start's allocations are done before the baseline is read.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssBeforeMiB = await rssMiB(api.spawned);
    let rssPeakMiB = rssBeforeMiB;
    const sampler = setInterval(() => {
      void rssMiB(api.spawned).then((mib) => {
        rssPeakMiB = Math.max(rssPeakMiB, mib);
      });
    }, SAMPLE_MS);
    const headers = { cookie: seed.cookie, "content-type": "application/json" };
    const started = performance.now();
    let view: UpdateView;
    try {
      const res = await fetch(`${api.origin}/updates`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          subject: "A new chapter is out",
          body: "Hello! The new chapter is here: https://example.com/chapter-2\n\nThank you for your support.",
          linkId: null,
          locale: "en",
        }),
      });
      if (res.status !== 202) throw new Error(`POST /updates answered ${res.status}: ${await res.text()}`);
      view = (await res.json()) as UpdateView;
      const deadline = Date.now() + updatesSeconds(options) * 1000;
      while (view.status !== "sent") {
        if (Date.now() > deadline) throw new Error(`the update was not sent in time (${view.sent} sent)`);
        if (api.spawned.exitedWith()) throw new Error(`the API exited: ${api.spawned.tail()}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const got = await fetch(`${api.origin}/updates/${view.id}`, { headers: { cookie: seed.cookie } });
        view = (await got.json()) as UpdateView;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    rssPeakMiB = Math.max(rssPeakMiB, await rssMiB(api.spawned));
    const stored = await withPg(databaseUrl, async (client) => {
      const rows = await client.query(
        "select count(*)::int as n from mail_outbox where template = 'buyer-update' and subject = $1",
        ["A new chapter is out"],
      );
      return Number(rows.rows[0]?.n ?? 0);
    });
    const expectedUnsubscribed = Math.floor(options.updatesBuyers / UNSUBSCRIBED_EVERY);
    const result: UpdatesResult = {
      buyers: options.updatesBuyers,
      seedSeconds: seed.seconds,
      recipients: view.recipients,
      sent: view.sent,
      failed: view.failed,
      unsubscribed: view.unsubscribed,
      stored,
      seconds,
      mailsPerSecond: view.sent / seconds,
      rssBeforeMiB,
      rssPeakMiB,
      pass:
        view.recipients === options.updatesBuyers &&
        view.unsubscribed === expectedUnsubscribed &&
        view.sent === options.updatesBuyers - expectedUnsubscribed &&
        view.failed === 0 &&
        stored === view.sent &&
        rssPeakMiB - rssBeforeMiB < RSS_GROWTH_BOUND_MIB,
    };
    for (const line of updatesSummary(result)) log(`  ${line}`);
    return result;
  } finally {
    await stop(api.spawned, 30_000);
  }
}

export function updatesSummary(r: UpdatesResult): string[] {
  return [
    `updates: ${count.format(r.sent)} mails in ${r.seconds.toFixed(1)} s (${count.format(r.mailsPerSecond)} mails/s), ` +
      `${count.format(r.unsubscribed)} unsubscribed skipped, ${r.failed} failed`,
    `updates: API RSS ${r.rssBeforeMiB.toFixed(0)} MiB before, ${r.rssPeakMiB.toFixed(0)} MiB at peak ` +
      `(+${(r.rssPeakMiB - r.rssBeforeMiB).toFixed(0)} MiB, bound ${RSS_GROWTH_BOUND_MIB}); every buyer once, ` +
      `memory bounded: ${r.pass ? "PASS" : "FAIL"}`,
  ];
}

/** The "Updates to buyers" section of docs/benchmarks.md. */
export function updatesSection(info: RunInfo, r: UpdatesResult): string {
  const { start: begin, end } = markers("updates");
  const table = markdownTable(
    ["Buyers", "Sent", "Unsubscribed", "Failed", "Time (s)", "Mails/s", "RSS before (MiB)", "RSS peak (MiB)"],
    [
      [
        count.format(r.buyers),
        count.format(r.sent),
        count.format(r.unsubscribed),
        count.format(r.failed),
        r.seconds.toFixed(1),
        count.format(r.mailsPerSecond),
        r.rssBeforeMiB.toFixed(0),
        r.rssPeakMiB.toFixed(0),
      ],
    ],
    new Set([0, 1, 2, 3, 4, 5, 6, 7]),
  );
  return `${begin}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Updates to buyers

Issue 21: an update to 100,000 buyers is sent in bounded memory, the job streaming them in batches
(decision 038). One creator's ${count.format(r.buyers)} customers (one in ${UNSUBSCRIBED_EVERY} unsubscribed) are written with SQL
(\`bench/lib/updates.ts\`, ${r.seedSeconds.toFixed(0)} s); an API instance running the job worker sends one update through the
sandbox mail provider (the outbox, a row per e-mail), and its resident memory is read every ${SAMPLE_MS} ms.

${table}

Every buyer e-mailed once, the unsubscribed skipped and counted, and the RSS grown by less than
${RSS_GROWTH_BOUND_MIB} MiB: ${r.pass ? "**PASS**" : "**FAIL**"}.

${machineParagraph(info)}
${end}`;
}
