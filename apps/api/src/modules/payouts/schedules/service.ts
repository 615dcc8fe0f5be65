import {
  type Currency,
  type Locale,
  type PayoutSchedule,
  type PayoutScheduleBody,
  payoutScheduleBlockers,
} from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../../config.ts";
import type { Db, DbOrTx, Tx } from "../../../db/client.ts";
import { jobKind } from "../../../jobs/index.ts";
import { validation } from "../../../lib/errors.ts";
import type { PayoutProvider } from "../../../providers/payouts/types.ts";
import { queueMail } from "../../mail/jobs.ts";
import { debtsOf } from "../../wallet/debts/queries.ts";
import { post } from "../../wallet/ledger.ts";
import { payoutRequested } from "../../wallet/payout-postings.ts";
import { lockOwnBankAccount } from "../bank-accounts/queries.ts";
import { availableBalances, insertScheduledPayout, openPayoutsOf } from "../queries.ts";
import { newestBankAccountIn } from "../risk-queries.ts";
import { accountBlockers } from "../service.ts";
import { insertStep } from "../steps-queries.ts";
import { decide } from "../transitions.ts";
import { duePeriod, nextRunAt, nextTickAt } from "./periods.ts";
import {
  currenciesPaidIn,
  deleteSchedule,
  lockSchedule,
  periodsTaken,
  type ScheduleRow,
  saveSchedule,
  scheduleOf,
  scheduleOwner,
  schedulesWithBalance,
  setBlocked,
  setLastRun,
} from "./queries.ts";

/*
 * Payout schedules (issue 23): on request (no row), weekly, monthly, or at a threshold. A chain of
 * "tick" jobs, one per PAYOUT_SCHEDULE_INTERVAL_MINUTES bucket (its dedupe key), looks for the
 * schedules due and queues one "run" per account; a run pays each currency whose available balance
 * reaches the minimum (and the threshold) to the newest bank account that takes it, the whole
 * balance, once per period: the period is the payout's `schedule_period`, under a unique index,
 * inserted in the transaction of the ledger posting. What keeps a due run from paying is recorded
 * on the schedule and e-mailed to the creator once per change.
 */

export type ScheduleSettings = Pick<
  Config,
  | "PAYOUT_SCHEDULE_INTERVAL_MINUTES"
  | "PAYOUT_REVIEW_RULES"
  | "PAYOUT_REVIEW_ABOVE_MINOR"
  | "PAYOUT_REVIEW_ACCOUNT_AGE_DAYS"
  | "PAYOUT_REVIEW_RECENT_DAYS"
  | "PAYOUT_REVIEW_BANK_CHANGE_DAYS"
  | "PLATFORM_NAME"
  | "WEB_ORIGIN"
  | "rules"
>;

type Blocker = PayoutSchedule["blocked"][number];

/** Stored as "identity" or "bank_account:GBP" (decision 041). */
const encodeBlocker = (b: Blocker) => (b.currency ? `${b.code}:${b.currency}` : b.code);
const blockerCode = z.enum(payoutScheduleBlockers);
function decodeBlocker(text: string): Blocker | null {
  const [code, currency] = text.split(":");
  const parsed = blockerCode.safeParse(code);
  if (!parsed.success) return null;
  return currency ? { code: parsed.data, currency: currency as Currency } : { code: parsed.data };
}

function toBody(row: ScheduleRow | null): PayoutScheduleBody {
  if (!row) return { kind: "manual" };
  if (row.kind === "weekly") return { kind: "weekly", weekday: row.weekday ?? 1 };
  if (row.kind === "monthly") return { kind: "monthly", dayOfMonth: row.dayOfMonth ?? 1 };
  return { kind: "threshold", thresholdMinor: row.thresholdMinor ?? 0 };
}

function toSchedule(settings: ScheduleSettings, row: ScheduleRow | null, now = new Date()): PayoutSchedule {
  const schedule = toBody(row);
  const next = nextRunAt(schedule, settings.PAYOUT_SCHEDULE_INTERVAL_MINUTES, now, row?.updatedAt ?? now);
  return {
    schedule,
    nextRunAt: next?.toISOString() ?? null,
    blocked: (row?.blocked ?? []).map(decodeBlocker).filter((b): b is Blocker => b !== null),
    blockedAt: row?.blockedAt?.toISOString() ?? null,
  };
}

/** GET /profile/payout/schedule */
export async function getSchedule(
  db: Db,
  settings: ScheduleSettings,
  userId: string,
): Promise<PayoutSchedule> {
  return toSchedule(settings, await scheduleOf(db, userId));
}

/** PUT /profile/payout/schedule: a threshold below the payout minimum is refused on its field. */
export async function putSchedule(
  db: Db,
  settings: ScheduleSettings,
  userId: string,
  body: PayoutScheduleBody,
  locale: Locale,
): Promise<PayoutSchedule> {
  if (body.kind === "manual") {
    await deleteSchedule(db, userId);
    return toSchedule(settings, null);
  }
  const minimum = settings.rules.payoutMinimumMinor;
  if (body.kind === "threshold" && body.thresholdMinor < minimum) {
    const message = "The payout threshold must be at least the minimum payout, {minimum}.";
    throw validation({ thresholdMinor: [message] }, message, {
      minimum: formatMoney(minimum, "EUR", locale),
    });
  }
  const row = await saveSchedule(db, {
    userId,
    kind: body.kind,
    weekday: body.kind === "weekly" ? body.weekday : null,
    dayOfMonth: body.kind === "monthly" ? body.dayOfMonth : null,
    thresholdMinor: body.kind === "threshold" ? body.thresholdMinor : null,
  });
  return toSchedule(settings, row);
}

/**
 * Development only (DEV_ROUTES): runs one account's schedule now, as its job would at `at`, so a
 * browser test does not wait for the next tick. The same run, under the same locks and indexes.
 */
export async function runScheduleNow(
  db: Db,
  settings: ScheduleSettings,
  provider: PayoutProvider,
  userId: string,
  at: Date,
): Promise<RunOutcome> {
  return db.transaction((tx) => runPayoutSchedule(tx, settings, provider, { userId, at: at.toISOString() }));
}

// --- The job chain ------------------------------------------------------------------------------

/** One per interval bucket, whoever queues it; each queues the next. */
export const payoutScheduleTickJob = jobKind("payouts.schedule-tick", z.object({ at: z.iso.datetime() }));
/** One account's due run of one tick. */
export const payoutScheduleRunJob = jobKind(
  "payouts.schedule-run",
  z.object({ userId: z.uuid(), at: z.iso.datetime() }),
);

/**
 * Queues the next tick, once per bucket whoever asks: every API instance calls it at start and
 * each tick for the next bucket, so one chain exists however many instances run.
 */
export async function scheduleNextPayoutTick(
  db: DbOrTx,
  settings: Pick<Config, "PAYOUT_SCHEDULE_INTERVAL_MINUTES">,
  now = new Date(),
): Promise<void> {
  const at = nextTickAt(settings.PAYOUT_SCHEDULE_INTERVAL_MINUTES, now);
  await payoutScheduleTickJob.enqueue(
    db,
    { at: at.toISOString() },
    { runAt: at, dedupeKey: `payouts.schedule-tick@${at.toISOString()}` },
  );
}

/** A tick: one run per account with a currency that its schedule would pay now. Answers their ids. */
export async function tickPayoutSchedules(
  tx: Tx,
  settings: ScheduleSettings,
  payload: { at: string },
  now = new Date(),
): Promise<string[]> {
  const at = new Date(payload.at);
  const candidates = await schedulesWithBalance(tx, settings.rules.payoutMinimumMinor);
  const due = candidates
    .map((c) => ({ ...c, period: duePeriod(c, at) }))
    .filter((c): c is typeof c & { period: string } => c.period !== null);
  const taken = await periodsTaken(
    tx,
    [...new Set(due.map((c) => c.userId))],
    [...new Set(due.map((c) => c.period))],
  );
  const isTaken = (c: (typeof due)[number]) =>
    taken.some((t) => t.userId === c.userId && t.currency === c.currency && t.schedulePeriod === c.period);
  const users = [...new Set(due.filter((c) => !isTaken(c)).map((c) => c.userId))];
  for (const userId of users) {
    await payoutScheduleRunJob.enqueue(
      tx,
      { userId, at: payload.at },
      { dedupeKey: `payouts.schedule-run:${userId}:${payload.at}` },
    );
  }
  await scheduleNextPayoutTick(tx, settings, now > at ? now : at);
  return users;
}

export interface RunOutcome {
  created: string[];
  blocked: Blocker[];
  /** Whether a job was queued (a submission, an e-mail): the worker may be woken. */
  queued: boolean;
}

/**
 * One account's run, under its schedule's row lock. Repeating it (a retried job, a second worker,
 * a run after a crash that rolled the first back) creates nothing more: each payout's period is
 * taken in the transaction that posts it.
 */
export async function runPayoutSchedule(
  tx: Tx,
  settings: ScheduleSettings,
  provider: PayoutProvider,
  payload: { userId: string; at: string },
): Promise<RunOutcome> {
  const outcome: RunOutcome = { created: [], blocked: [], queued: false };
  const schedule = await lockSchedule(tx, payload.userId);
  const owner = await scheduleOwner(tx, payload.userId);
  if (!schedule || !owner) return outcome;
  const at = new Date(payload.at);
  const period = duePeriod(schedule, at);
  if (!period) return outcome;
  const floor = Math.max(settings.rules.payoutMinimumMinor, schedule.thresholdMinor ?? 0);
  const [balances, paid, open] = [
    await availableBalances(tx, owner.id),
    await currenciesPaidIn(tx, owner.id, period),
    await openPayoutsOf(tx, owner.id),
  ];
  const payable = balances.filter(
    (b) => b.amount >= floor && !paid.includes(b.currency) && !open.some((p) => p.currency === b.currency),
  );
  // Nothing to pay: nothing was kept from paying either, so what was recorded stays.
  if (payable.length === 0) return outcome;

  const accountWide = await accountBlockers(tx, owner);
  const debts = await debtsOf(tx, owner.id);
  if (accountWide.length > 0) {
    outcome.blocked = accountWide.map((code) => ({ code }));
  } else if (debts.length > 0) {
    // Repaid first from the next sales (decision 042): the schedule pays once nothing is owed.
    outcome.blocked = debts.map((d) => ({ code: "debt", currency: d.currency }));
  } else {
    for (const { currency, amount } of payable) {
      const newest = await newestBankAccountIn(tx, owner.id, currency);
      // Locked like a request's: its deletion waits for this payout, or this run for the deletion.
      const bank = newest ? await lockOwnBankAccount(tx, owner.id, newest.id) : null;
      if (!bank) {
        outcome.blocked.push({ code: "bank_account", currency });
        continue;
      }
      const row = await insertScheduledPayout(tx, {
        userId: owner.id,
        bankAccountId: bank.id,
        holderName: bank.holderName,
        ibanCountry: bank.ibanCountry,
        ibanLast4: bank.ibanLast4,
        amountMinor: amount,
        currency,
        provider: provider.kind,
        schedulePeriod: period,
      });
      if (!row) continue;
      await post(tx, payoutRequested({ payoutId: row.id, userId: owner.id, currency, amountMinor: amount }));
      await insertStep(tx, row.id, "scheduled", { period });
      const decided = await decide(tx, settings, provider, row);
      outcome.created.push(row.id);
      outcome.queued ||= decided.queued;
    }
    if (outcome.created.length > 0) await setLastRun(tx, owner.id, at);
  }
  const mailed = await recordBlocked(tx, settings, schedule, owner, outcome.blocked, at);
  outcome.queued ||= mailed;
  return outcome;
}

/** Records what kept the run from paying; a change to something new is e-mailed, once. */
async function recordBlocked(
  tx: Tx,
  settings: Pick<Config, "WEB_ORIGIN">,
  schedule: ScheduleRow,
  owner: { id: string; email: string; locale: Locale },
  blocked: Blocker[],
  at: Date,
): Promise<boolean> {
  const encoded = blocked.map(encodeBlocker).sort();
  const before = [...schedule.blocked].sort();
  if (encoded.join(",") === before.join(",")) return false;
  await setBlocked(tx, owner.id, encoded, encoded.length > 0 ? at : null);
  if (blocked.length === 0) return false;
  await queueMail(
    tx,
    {
      to: owner.email,
      locale: owner.locale,
      template: "payout-schedule-blocked",
      params: { blocked, url: `${settings.WEB_ORIGIN}/account/wallet` },
    },
    { dedupeKey: `payout-schedule-blocked:${owner.id}:${encoded.join(",")}:${at.toISOString()}` },
  );
  return true;
}
