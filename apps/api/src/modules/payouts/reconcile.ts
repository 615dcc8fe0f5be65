import type { AdminPayoutMismatch, Currency } from "@salelink/contracts";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";
import type { PayoutProvider } from "../../providers/payouts/types.ts";
import { connectAccountOf } from "./queries.ts";
import {
  connectAccounts,
  inFlightOf,
  openMismatches,
  resolveMismatch,
  upsertMismatch,
} from "./reconcile-queries.ts";

/*
 * Stripe Connect reconciliation (issue 32). A connected account should hold only what payouts not
 * yet made there explain (a submission interrupted between its transfer and its payout): its payouts
 * are manual, so a transfer is paid out at once, and a payout that failed has its transfer taken
 * back. Money there that nothing explains (or a negative balance) is reported to the admin; a later
 * run that finds it explained closes the report.
 */

/** One per interval bucket, whoever queues it; each queues the next and one check per account. */
export const reconcileTickJob = jobKind("payouts.reconcile-tick", z.object({ at: z.iso.datetime() }));
export const reconcileAccountJob = jobKind(
  "payouts.reconcile-account",
  z.object({ userId: z.uuid(), accountId: z.string().min(1) }),
);

export async function scheduleNextReconcile(
  db: DbOrTx,
  settings: Pick<Config, "CONNECT_RECONCILE_MINUTES">,
  now = new Date(),
): Promise<void> {
  const step = settings.CONNECT_RECONCILE_MINUTES * 60_000;
  const at = new Date((Math.floor(now.getTime() / step) + 1) * step);
  await reconcileTickJob.enqueue(
    db,
    { at: at.toISOString() },
    { runAt: at, dedupeKey: `payouts.reconcile-tick@${at.toISOString()}` },
  );
}

async function tick(tx: Tx, settings: Pick<Config, "CONNECT_RECONCILE_MINUTES">, at: string): Promise<void> {
  for (const account of await connectAccounts(tx)) {
    await reconcileAccountJob.enqueue(tx, account, {
      dedupeKey: `payouts.reconcile:${account.accountId}:${at}`,
    });
  }
  const when = new Date(at);
  await scheduleNextReconcile(tx, settings, when > new Date() ? when : new Date());
}

/** One account: its balance per currency against its payouts in flight. */
export async function reconcileAccount(
  tx: Tx,
  provider: PayoutProvider,
  account: { userId: string; accountId: string },
): Promise<void> {
  if (!provider.connectedBalances) return;
  const [balances, inFlight] = [
    await provider.connectedBalances(account.accountId),
    await inFlightOf(tx, account.userId),
  ];
  const currencies = new Set<Currency>([...balances.map((b) => b.currency), ...inFlight.keys()]);
  for (const currency of currencies) {
    const actualMinor = balances.find((b) => b.currency === currency)?.amountMinor ?? 0;
    const expectedMinor = inFlight.get(currency) ?? 0;
    if (actualMinor < 0 || actualMinor > expectedMinor)
      await upsertMismatch(tx, { ...account, currency, expectedMinor, actualMinor, reason: null });
    else await resolveMismatch(tx, account.accountId, currency);
  }
}

/**
 * A payout's transfer that Stripe would not give back (payouts/events.ts): the money stays on the
 * connected account, listed for an operator until they settle the payout.
 */
export async function recordMismatch(
  tx: DbOrTx,
  p: { userId: string; currency: Currency; amountMinor: number; reason: string },
): Promise<void> {
  const accountId = await connectAccountOf(tx, p.userId);
  if (!accountId) return;
  await upsertMismatch(tx, {
    userId: p.userId,
    accountId,
    currency: p.currency,
    expectedMinor: 0,
    actualMinor: p.amountMinor,
    reason: p.reason.slice(0, 500),
  });
}

export function registerReconcileJobs(
  registry: JobRegistry,
  deps: { config: Pick<Config, "CONNECT_RECONCILE_MINUTES">; payouts: PayoutProvider },
): void {
  registry.register(reconcileTickJob, (tx, { at }) => tick(tx, deps.config, at));
  registry.register(reconcileAccountJob, (tx, account) => reconcileAccount(tx, deps.payouts, account));
}

/** GET /admin/payouts/mismatches: what the reconciliation found and nothing has explained since. */
export async function listMismatches(db: Db): Promise<AdminPayoutMismatch[]> {
  return (await openMismatches(db)).map((m) => ({
    ...m,
    foundAt: m.foundAt.toISOString(),
    checkedAt: m.checkedAt.toISOString(),
  }));
}
