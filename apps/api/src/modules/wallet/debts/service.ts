import { randomUUID } from "node:crypto";
import {
  type AdminDebtList,
  type Currency,
  type DebtSummary,
  type DebtWriteOffBody,
  debtCauses,
} from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Db, DbOrTx, Tx } from "../../../db/client.ts";
import { type JobRegistry, jobKind } from "../../../jobs/index.ts";
import { AppError } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { queueMail } from "../../mail/jobs.ts";
import { debtsIncurred, debtWrittenOff } from "../debt-postings.ts";
import type { Posting } from "../entries.ts";
import { post } from "../ledger.ts";
import {
  allDebts,
  type DebtMovement,
  debtMovementsSinceZero,
  debtorOf,
  debtsOf,
  lockDebt,
  writtenOffTotals,
} from "./queries.ts";

/*
 * Debts (issue 32, decision 042): what a reversal could not take back from the balance of the
 * money's owner. The ledger records them and repays them first from what next becomes available
 * (wallet/ledger.ts); this part tells the debtor, shows the payout pages and the admin what is owed
 * and why, and lets an operator write one off.
 */

type Cause = (typeof debtCauses)[number];
const causeOf = (kind: string): Cause | null =>
  (debtCauses as readonly string[]).includes(kind) ? (kind as Cause) : null;

/** Tells a user that a reversal left them owing money; queued in the reversal's transaction. */
export const debtNoticeJob = jobKind(
  "wallet.debt-notice",
  z.object({ userId: z.uuid(), currency: z.enum(["EUR", "USD", "GBP", "CHF"]), cause: z.enum(debtCauses) }),
);

/** Queues a notice to each user a posting put in debt (once per posting, user and currency). */
export async function queueDebtNotices(tx: DbOrTx, posting: Posting): Promise<void> {
  const cause = causeOf(posting.kind);
  if (!cause) return;
  for (const entry of debtsIncurred(posting)) {
    if (entry.ownerId === null) continue;
    await debtNoticeJob.enqueue(
      tx,
      { userId: entry.ownerId, currency: entry.currency, cause },
      { dedupeKey: `debt-notice:${posting.kind}:${posting.reference}:${entry.ownerId}:${entry.currency}` },
    );
  }
}

async function sendDebtNotice(
  tx: Tx,
  config: Pick<Config, "WEB_ORIGIN">,
  payload: z.output<typeof debtNoticeJob.schema>,
): Promise<void> {
  const owed = (await debtsOf(tx, payload.userId)).find((d) => d.currency === payload.currency);
  // Repaid before the job ran (a sale released meanwhile): nothing to tell.
  if (!owed) return;
  const debtor = await debtorOf(tx, payload.userId);
  if (!debtor) return;
  await queueMail(tx, {
    to: debtor.email,
    locale: debtor.locale,
    template: "debt-incurred",
    params: {
      amount: formatMoney(-owed.balanceMinor, payload.currency, debtor.locale),
      cause: payload.cause,
      url: `${config.WEB_ORIGIN}/account/payouts`,
    },
  });
}

export function registerDebtJobs(registry: JobRegistry, { config }: { config: Config }): void {
  registry.register(debtNoticeJob, (tx, payload) => sendDebtNotice(tx, config, payload));
}

/** Whether the user owes anything, in any currency: their payouts wait until they do not. */
export async function inDebt(db: DbOrTx, userId: string): Promise<boolean> {
  return (await debtsOf(db, userId)).length > 0;
}

/** What a movement adds to a debt's causes (repayments and write-offs reduce it; they are not causes). */
function summarise(movements: DebtMovement[], ownerId: string, currency: Currency) {
  const mine = movements.filter((m) => m.ownerId === ownerId && m.currency === currency);
  const sources = mine.flatMap((m) => {
    const cause = causeOf(m.kind);
    return cause && m.amountMinor < 0
      ? [{ cause, orderId: m.orderId, amount: -m.amountMinor, at: m.createdAt.toISOString() }]
      : [];
  });
  const since = (mine[0]?.createdAt ?? new Date()).toISOString();
  return { since, sources };
}

/** A user's debts for their payouts page: per currency, how much, since when, and why. */
export async function debtSummaries(db: DbOrTx, userId: string): Promise<DebtSummary[]> {
  const debts = await debtsOf(db, userId);
  if (debts.length === 0) return [];
  const movements = await debtMovementsSinceZero(db, [userId]);
  return debts.map((d) => {
    const { since, sources } = summarise(movements, userId, d.currency);
    return {
      currency: d.currency,
      amount: -d.balanceMinor,
      since,
      causes: [...new Set(sources.map((s) => s.cause))],
    };
  });
}

/** GET /admin/debts: every debt with its causes, the total owed and what was written off. */
export async function adminDebts(db: Db): Promise<AdminDebtList> {
  const [debts, writtenOff] = await Promise.all([allDebts(db), writtenOffTotals(db)]);
  const movements = await debtMovementsSinceZero(db, [...new Set(debts.map((d) => d.userId))]);
  const totals = new Map<Currency, number>();
  for (const d of debts) totals.set(d.currency, (totals.get(d.currency) ?? 0) - d.balanceMinor);
  return {
    items: debts.map((d) => ({
      user: { id: d.userId, email: d.email },
      currency: d.currency,
      amount: -d.balanceMinor,
      ...summarise(movements, d.userId, d.currency),
    })),
    totals: [...totals].map(([currency, amount]) => ({ currency, amount })),
    writtenOff,
  };
}

/** POST /admin/debts/write-off: the whole debt, against the platform's write-offs, audited. */
export async function writeOffDebt(db: Db, actorId: string, body: DebtWriteOffBody): Promise<number> {
  return db.transaction(async (tx) => {
    const owed = -(await lockDebt(tx, body.userId, body.currency));
    if (owed <= 0) throw new AppError("ConflictException", "This account owes nothing in this currency.");
    const writeOffId = randomUUID();
    await post(
      tx,
      debtWrittenOff({ writeOffId, ownerId: body.userId, currency: body.currency, amountMinor: owed }),
    );
    await audit(tx, {
      actorId,
      action: "debt.write_off",
      targetType: "account",
      targetId: body.userId,
      reason: body.reason,
      details: { amountMinor: owed, currency: body.currency, writeOffId },
    });
    return owed;
  });
}
