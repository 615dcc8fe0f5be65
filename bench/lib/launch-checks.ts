/**
 * What must hold after the launch, whatever the rates: the ledger audit clean (the API's own
 * `auditLedger`, run by launch-audit.ts), the limited link sold exactly its stock, no order paid
 * twice, no payment lost, every redelivered event answered 2xx without a second effect, no click lost.
 */
import { nonNegativeAccounts } from "@salelink/contracts/ledger";
import { benchDir, count, log } from "./context.ts";
import { withPg } from "./launch-seed.ts";
import { start, stop } from "./processes.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const taskTimeoutMs = 300_000;

/** One of launch-audit.ts's tasks on the bench database: its JSON answer, or why there is none. */
async function apiTask(
  task: "audit" | "rollups",
  databaseUrl: string,
  apiDir: string | undefined,
): Promise<Record<string, unknown>> {
  const child = start(`launch ${task}`, process.execPath, ["--import", "tsx", "lib/launch-audit.ts", task], {
    cwd: benchDir,
    env: { LAUNCH_AUDIT_DATABASE_URL: databaseUrl, ...(apiDir ? { LAUNCH_AUDIT_API_DIR: apiDir } : {}) },
    echo: false,
  });
  const timer = setTimeout(() => void stop(child), taskTimeoutMs);
  const exit = await child.exited;
  clearTimeout(timer);
  try {
    return JSON.parse(child.tail().split("\n").at(-1) ?? "") as Record<string, unknown>;
  } catch {
    return { error: `${exit}: ${child.tail().slice(-500)}` };
  }
}

/** The API's `auditLedger` on the bench database (tsx runs the API's source). */
export async function ledgerAudit(databaseUrl: string, apiDir: string | undefined): Promise<Check> {
  const answer = (await apiTask("audit", databaseUrl, apiDir)) as {
    problems?: Record<string, { count: number; sample: string[] }>;
    error?: string;
  };
  if (answer.error !== undefined || !answer.problems) {
    return {
      name: "ledger audit",
      ok: false,
      detail: `the audit could not run (${answer.error}); if the API's source is ahead of its build, run with --rebuild`,
    };
  }
  const found = Object.entries(answer.problems).filter(([, p]) => p.count > 0);
  return {
    name: "ledger audit",
    ok: found.length === 0,
    detail:
      found.length === 0
        ? `clean (${Object.keys(answer.problems).join(", ")}: none)`
        : found.map(([name, p]) => `${p.count} ${name} (e.g. ${p.sample.join(", ")})`).join("; "),
  };
}

/**
 * Brings the API's dashboard rollups current after the bulk insert (`refreshSalesRollups`, the
 * function its periodic job runs), so the reads are measured on current rollups: what it did.
 */
export async function refreshDashboardRollups(
  databaseUrl: string,
  apiDir: string | undefined,
): Promise<string> {
  const answer = await apiTask("rollups", databaseUrl, apiDir);
  return typeof answer.done === "string" ? answer.done : `refresh failed: ${String(answer.error)}`;
}

/**
 * What holds in any balance design, straight from the append-only entries: every transaction sums to
 * zero per currency, and no account that may not go negative sums below zero for its holder.
 */
export async function entriesCheck(databaseUrl: string): Promise<Check> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select
         (select count(*) from (select 1 from ledger_entries group by transaction_id, currency
            having sum(amount_minor) <> 0) u)::int as unbalanced,
         (select count(*) from (select 1 from ledger_entries where account = any($1::text[])
            group by owner_id, account, currency having sum(amount_minor) < 0) n)::int as negative,
         (select count(*) from ledger_transactions)::int as transactions`,
      [[...nonNegativeAccounts]],
    );
    const r = rows[0] ?? {};
    const unbalanced = Number(r.unbalanced ?? -1);
    const negative = Number(r.negative ?? -1);
    return {
      name: "entries balanced, none negative",
      ok: unbalanced === 0 && negative === 0,
      detail: `${count.format(Number(r.transactions ?? 0))} transactions: ${unbalanced} unbalanced, ${negative} non-negative accounts below zero`,
    };
  });
}

/** Per event id, the answers its deliveries got (`result` of the webhook, or `HTTP <status>`). */
export type EventAnswers = Map<string, string[]>;

/**
 * What the deliveries were answered: no event applied twice, every answer a 200 `applied` or
 * `duplicate`, every redelivery answered after an applied one `duplicate`. A delivery left without an
 * answer (the client's 10 s timeout) is counted apart: whether its event took effect, the database
 * checks say.
 */
export function deliveryCheck(answers: EventAnswers, events: number, deliveries: number): Check {
  let appliedOnce = 0;
  let appliedTwice = 0;
  let otherAnswers = 0;
  let redeliveriesNoop = 0;
  const wrong: string[] = [];
  for (const [id, results] of answers) {
    const applied = results.filter((r) => r === "applied").length;
    const other = results.filter((r) => r !== "applied" && r !== "duplicate").length;
    if (applied === 1) appliedOnce += 1;
    if (applied > 1) appliedTwice += 1;
    otherAnswers += other;
    if (applied === 1) redeliveriesNoop += results.length - 1;
    if ((applied > 1 || other > 0) && wrong.length < 3) wrong.push(`${id}: ${results.join(", ")}`);
  }
  const answered = [...answers.values()].reduce((sum, r) => sum + r.length, 0);
  return {
    name: "each event once",
    ok: appliedTwice === 0 && otherAnswers === 0 && answered > 0,
    detail:
      `${count.format(deliveries)} deliveries of ${count.format(events)} events, ${count.format(answered)} answered ` +
      `(${count.format(deliveries - answered)} unanswered: timed out, or not sent before the phase's limit): ${count.format(appliedOnce)} events answered applied once, ` +
      `${appliedTwice} applied twice, ${otherAnswers} other answers; ${count.format(redeliveriesNoop)} later deliveries ` +
      `of an applied event answered "duplicate"` +
      (wrong.length > 0 ? `; e.g. ${wrong.join("; ")}` : ""),
  };
}

export async function paidAmong(databaseUrl: string, orderIds: string[]): Promise<number> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      "select count(*)::int as n from orders where id = any($1::uuid[]) and status = 'paid'",
      [orderIds],
    );
    return Number(rows[0]?.n ?? 0);
  });
}

/**
 * The stored state of a paid link: paid orders, its sales counter, the order_paid postings of its
 * orders (one each), and how many of the orders whose event was sent are paid.
 */
export async function salesCheck(
  databaseUrl: string,
  label: string,
  linkIds: string[],
  expected: number,
  sentOrderIds: string[],
  eventPrefix: string,
): Promise<Check[]> {
  return withPg(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select
         (select count(*) from orders where link_id = any($1::uuid[]) and status = 'paid')::int as paid,
         (select coalesce(sum(sales_count), 0) from links where id = any($1::uuid[]))::int as counted,
         (select count(*) from ledger_transactions t join orders o on t.reference = o.id::text
            where t.kind = 'order_paid' and o.link_id = any($1::uuid[]))::int as postings,
         (select count(*) from orders where id = any($2::uuid[]) and status = 'paid')::int as sent_paid,
         (select count(*) from payment_events where left(event_id, length($3)) = $3)::int as events`,
      [linkIds, sentOrderIds, eventPrefix],
    );
    const r = rows[0] ?? {};
    const [paid, counted, postings, sentPaid, events] = [
      "paid",
      "counted",
      "postings",
      "sent_paid",
      "events",
    ].map((k) => Number(r[k] ?? -1)) as [number, number, number, number, number];
    const distinct = new Set(sentOrderIds).size;
    return [
      {
        name: `${label}: sold exactly ${count.format(expected)}`,
        ok: paid === expected && counted === expected,
        detail: `${count.format(paid)} orders paid, sales counter ${count.format(counted)}`,
      },
      {
        name: `${label}: no order paid twice`,
        ok: postings === paid,
        detail: `${count.format(postings)} order_paid postings for ${count.format(paid)} paid orders`,
      },
      {
        name: `${label}: no payment lost`,
        ok: sentPaid === distinct && events === distinct,
        detail: `${count.format(sentPaid)} of the ${count.format(distinct)} orders sent an event are paid; ${count.format(events)} events stored`,
      },
    ];
  });
}

/**
 * Clicks answered 204 against those stored (the API flushes its buffer every CLICK_FLUSH_MS): polled
 * until the count stops moving. A load stopped on time may leave requests in flight that the API still
 * counts: at most one per connection more than answered.
 */
export async function clicksCheck(
  databaseUrl: string,
  campaignId: string,
  answered: number,
  connections: number,
): Promise<Check> {
  let stored = -1;
  for (let i = 0; i < 20; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const now = await withPg(databaseUrl, async (client) => {
      const { rows } = await client.query(
        "select coalesce(sum(clicks), 0)::bigint as n from campaign_click_days where campaign_id = $1",
        [campaignId],
      );
      return Number(rows[0]?.n ?? 0);
    });
    if (now === stored && now >= answered) break;
    stored = now;
  }
  const extra = stored - answered;
  return {
    name: "no click lost",
    ok: extra >= 0 && extra <= connections,
    detail: `${count.format(answered)} clicks answered 204, ${count.format(stored)} stored (${extra} in flight at the stop)`,
  };
}

export function logChecks(checks: Check[]): void {
  for (const c of checks) log(`  check ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`);
}
