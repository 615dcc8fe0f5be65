import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import { auditLedger, rowsOf } from "../../src/modules/wallet/ledger.ts";

/*
 * What must hold after any crash, read straight from the database: each check answers one line per
 * violation, so a failure says what broke and where. The unique indexes already forbid some of
 * these; they are checked anyway, as a migration could drop an index without anyone noticing.
 */

async function lines(db: Db, label: string, query: SQL): Promise<string[]> {
  const rows = rowsOf<{ detail: string }>(await db.execute(query));
  return rows.map((r) => `${label}: ${r.detail}`);
}

/** The ledger balances, no posting twice, and every state change has its posting and no other. */
export async function ledgerProblems(db: Db): Promise<string[]> {
  const audit = await auditLedger(db);
  const problems = [
    ...audit.unbalancedTransactions.map((id) => `unbalanced transaction ${id}`),
    ...audit.balancesNotMatchingEntries.map((key) => `running balance differs from entries ${key}`),
    ...audit.negativeBalances.map((key) => `negative balance ${key}`),
  ];
  const checks: [string, SQL][] = [
    [
      "posted twice",
      sql`select kind || ' ' || reference || ' x' || count(*) as detail from ledger_transactions
          group by kind, reference having count(*) > 1`,
    ],
    [
      "provider event recorded twice",
      sql`select provider || ' ' || event_id as detail from payment_events
          group by provider, event_id having count(*) > 1`,
    ],
    [
      "paid order without its sale posting",
      sql`select o.id::text as detail from orders o where o.status in ('paid', 'refunded')
          and not exists (select 1 from ledger_transactions t where t.kind = 'order_paid' and t.reference = o.id::text)`,
    ],
    [
      "sale posting of an unpaid order",
      sql`select t.reference as detail from ledger_transactions t join orders o on o.id::text = t.reference
          where t.kind = 'order_paid' and o.status not in ('paid', 'refunded')`,
    ],
    [
      // Bumped by each application of a payment: the one trace of an event applied twice that the
      // ledger's unique reference would hide.
      "sales count differs from paid orders",
      sql`select l.id::text || ' counts ' || l.sales_count || ', paid ' || count(o.id) as detail
          from links l left join orders o on o.link_id = l.id and o.status = 'paid'
          group by l.id, l.sales_count having l.sales_count <> count(o.id)`,
    ],
    [
      "release without its posting, or the reverse",
      sql`select o.id::text as detail from orders o
          where (o.released_at is not null) <> exists (select 1 from ledger_transactions t
            where t.kind = 'hold_release' and t.reference = o.id::text)`,
    ],
    [
      "claim without posting",
      sql`select c.id::text as detail from commission_claims c where not exists
          (select 1 from ledger_transactions t where t.kind = 'claim' and t.reference like c.id::text || ':%')`,
    ],
    [
      "claimed amount differs from the claimed orders' commissions",
      sql`with posted as (
            select e.owner_id, e.currency, sum(e.amount_minor) as amount from ledger_entries e
            join ledger_transactions t on t.id = e.transaction_id
            where t.kind = 'claim' and e.account = 'available' group by 1, 2),
          claimed as (
            select c.user_id as owner_id, o.currency, sum(o.commission_minor) as amount
            from orders o join commission_claims c on c.id = o.commission_claim_id group by 1, 2)
          select coalesce(p.owner_id, c.owner_id)::text || ' ' || coalesce(p.amount, 0) || ' posted, '
            || coalesce(c.amount, 0) || ' claimed' as detail
          from posted p full join claimed c on c.owner_id = p.owner_id and c.currency = p.currency
          where coalesce(p.amount, 0) <> coalesce(c.amount, 0)`,
    ],
    [
      "payout postings do not match its status",
      sql`select p.id::text || ' ' || p.status as detail from payouts p where
            (select count(*) from ledger_transactions t where t.kind = 'payout_requested' and t.reference = p.id::text) <> 1
            or (p.status = 'paid') <> exists (select 1 from ledger_transactions t where t.kind = 'payout_paid' and t.reference = p.id::text)
            or (p.status = 'failed') <> exists (select 1 from ledger_transactions t where t.kind = 'payout_failed' and t.reference = p.id::text)`,
    ],
  ];
  for (const [label, query] of checks) problems.push(...(await lines(db, label, query)));
  return problems;
}

/** Jobs that should have run by now and have not: due and queued, leased past their lease, or failed. */
export async function jobProblems(db: Db): Promise<string[]> {
  return lines(
    db,
    "job",
    sql`select kind || ' ' || status || ' attempts ' || attempts || coalesce(' locked until ' || locked_until, '')
          || coalesce(' error ' || last_error, '') as detail
        from jobs where status = 'failed' or (status = 'queued' and run_at <= now())`,
  );
}

/** Waits until no job is due any more (the restarted process has taken the dead one's leases over). */
export async function waitForJobs(db: Db, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problems = await jobProblems(db);
    if (problems.length === 0 || Date.now() > deadline) return problems;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every payment the provider confirmed (by its card form or by an event it sent) has a paid order. */
export async function unpaidConfirmedPayments(db: Db, sentEventOrders: string[]): Promise<string[]> {
  const fromSandbox = await lines(
    db,
    "confirmed payment without a paid order",
    sql`select s.id || ' order ' || s.order_id::text || ' ' || coalesce(o.status, 'missing') as detail
        from sandbox_payments s left join orders o on o.id = s.order_id
        where s.status = 'succeeded' and coalesce(o.status, '') <> 'paid'`,
  );
  if (sentEventOrders.length === 0) return fromSandbox;
  const ids = sql.join(
    sentEventOrders.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const fromEvents = await lines(
    db,
    "provider event without a paid order",
    sql`select o.id::text || ' ' || o.status as detail from orders o where o.id in (${ids}) and o.status <> 'paid'`,
  );
  return [...fromSandbox, ...fromEvents];
}

/** A user's balances per account from the ledger's entries, the figures GET /wallet must show. */
export async function ledgerSums(db: Db, userId: string): Promise<Map<string, number>> {
  const rows = rowsOf<{ account: string; currency: string; total: string }>(
    await db.execute(sql`select account, currency, sum(amount_minor)::text as total from ledger_entries
      where owner_id = ${userId} group by 1, 2`),
  );
  return new Map(rows.map((r) => [`${r.currency}:${r.account}`, Number(r.total)]));
}
