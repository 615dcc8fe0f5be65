import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { type JobRegistry, jobKind } from "../../jobs/index.ts";
import { foldAllDeltas } from "./ledger.ts";

/*
 * The fold of sale credits into running balances (decision 030). A balance is always its row plus
 * its unfolded credits, so the fold changes no balance anyone reads: it only keeps the credits
 * waiting few, so that a read sums a handful of rows. Hence it is queued after a sale commits,
 * outside the sale's transaction (a sale never waits on it), and losing one queueing to a crash
 * only delays the fold until the next sale or debit.
 */

/** Folds waiting credits, a window's worth of sales at a time; queued at most once per window. */
export const foldBalancesJob = jobKind("wallet.fold-balances", z.object({}));

/** Seconds between two folds while sales come in: how many credits a balance read may have to sum. */
const FOLD_WINDOW_S = 2;
/** Balances folded per run (each takes its row's lock for the run's transaction). */
const FOLD_BATCH = 200;

/** Queues the next fold, once per window whoever asks. */
export async function scheduleFold(db: DbOrTx, now = Date.now()): Promise<void> {
  const window = Math.floor(now / (FOLD_WINDOW_S * 1000));
  await foldBalancesJob.enqueue(
    db,
    {},
    { runAt: new Date((window + 1) * FOLD_WINDOW_S * 1000), dedupeKey: `ledger-fold@${window}` },
  );
}

export function registerWalletJobs(registry: JobRegistry): void {
  registry.register(foldBalancesJob, async (tx) => {
    // More balances than one run takes: the rest in the next window's run, queued now.
    if ((await foldAllDeltas(tx, FOLD_BATCH)) === FOLD_BATCH) await scheduleFold(tx);
  });
}
