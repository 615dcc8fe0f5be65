import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";

/** What a scrape reports from the database; computed at most once per METRICS_CACHE_MS. */
export interface DatabaseFigures {
  jobs: { kind: string; state: string; count: number }[];
  /** Seconds the oldest due, unleased job of each kind has been waiting. */
  oldestRunnable: { kind: string; seconds: number }[];
  ledger: { account: string; currency: string; totalMinor: number }[];
  /** Per event source and provider: the largest delay between the provider creating an event and
   * this platform applying it, over the recent window. */
  webhookLag: { source: string; provider: string; seconds: number }[];
}

/** Events applied within this window count towards the lag gauge. */
const LAG_WINDOW = sql`interval '15 minutes'`;

function lagQuery(table: "payment_events" | "payout_events", source: string) {
  // Providers stamp their events with `created` (Unix seconds, as Stripe does); others are left out.
  return sql`
    select ${source}::text as source, provider,
      max(extract(epoch from received_at) - (payload->>'created')::double precision)::double precision as seconds
    from ${sql.identifier(table)}
    where received_at > now() - ${LAG_WINDOW} and jsonb_typeof(payload->'created') = 'number'
    group by provider`;
}

/** Raw results differ by driver in type, not in shape: both carry `rows`. */
async function rows<T extends z.ZodType>(db: Db, query: SQL, row: T): Promise<z.output<T>[]> {
  return z.object({ rows: z.array(row) }).parse(await db.execute(query)).rows;
}

const num = z.coerce.number();

export async function readDatabaseFigures(db: Db): Promise<DatabaseFigures> {
  // "leased" is a queued job some worker holds now; the others are the table's statuses.
  const jobs = await rows(
    db,
    sql`select kind,
      case when status = 'queued' and locked_until > now() then 'leased' else status end as state,
      count(*)::int as count
    from jobs group by 1, 2`,
    z.object({ kind: z.string(), state: z.string(), count: num }),
  );
  const oldestRunnable = await rows(
    db,
    sql`select kind, greatest(0, extract(epoch from now() - min(run_at)))::double precision as seconds
    from jobs
    where status = 'queued' and run_at <= now() and (locked_until is null or locked_until < now())
    group by kind`,
    z.object({ kind: z.string(), seconds: num }),
  );
  // Sums of immutable entries; the sum over every account of one currency is zero by construction.
  const ledger = await rows(
    db,
    sql`select account, currency, sum(amount_minor)::text as "totalMinor"
    from ledger_entries group by account, currency`,
    z.object({ account: z.string(), currency: z.string(), totalMinor: num }),
  );
  const webhookLag = await rows(
    db,
    sql`${lagQuery("payment_events", "payments")} union all ${lagQuery("payout_events", "payouts")}`,
    z.object({ source: z.string(), provider: z.string(), seconds: num.transform((s) => Math.max(0, s)) }),
  );
  return { jobs, oldestRunnable, ledger, webhookLag };
}
