import { formatMoney } from "@salelink/contracts/money";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { jobKind } from "../../jobs/index.ts";
import { queueMail } from "../mail/jobs.ts";
import { lockPayoutRow } from "./queries.ts";
import { payeeOf } from "./risk-queries.ts";

/*
 * What the creator is told by e-mail about a payout (issue 23): held for a review and why, failed
 * with the reason and what to do. Queued as a job in the transition's transaction, so the e-mail
 * goes if and only if the transition commits, and rendered by the job, which knows the settings.
 */

export const payoutNoticeJob = jobKind(
  "payouts.notice",
  z.object({
    payoutId: z.uuid(),
    notice: z.enum(["held", "failed"]),
    /** failed: by an operator's refusal, whose reason is told as theirs. */
    byOperator: z.boolean().default(false),
  }),
);

export const queuePayoutNotice = (
  tx: DbOrTx,
  payoutId: string,
  notice: "held" | "failed",
  byOperator = false,
) =>
  payoutNoticeJob.enqueue(
    tx,
    { payoutId, notice, byOperator },
    { dedupeKey: `payouts.notice:${payoutId}:${notice}` },
  );

/** The creator's page of one payout, with its timeline. */
export const payoutPageUrl = (config: Pick<Config, "WEB_ORIGIN">, payoutId: string) =>
  `${config.WEB_ORIGIN}/account/payouts/${payoutId}`;

export async function sendPayoutNotice(
  tx: Tx,
  config: Pick<Config, "WEB_ORIGIN">,
  payload: z.output<typeof payoutNoticeJob.schema>,
): Promise<void> {
  const row = await lockPayoutRow(tx, payload.payoutId);
  if (!row) return;
  const payee = await payeeOf(tx, row.userId);
  if (!payee) return;
  const amount = formatMoney(row.amountMinor, row.currency, payee.locale);
  const url = payoutPageUrl(config, row.id);
  const recipient = { to: payee.email, locale: payee.locale };
  const dedupeKey = `payout-mail:${row.id}:${payload.notice}`;
  if (payload.notice === "held") {
    if (row.heldRules.length === 0) return;
    await queueMail(
      tx,
      { ...recipient, template: "payout-held", params: { amount, rules: row.heldRules, url } },
      { dedupeKey },
    );
    return;
  }
  await queueMail(
    tx,
    {
      ...recipient,
      template: "payout-failed",
      params: {
        amount,
        reason: (row.failureReason ?? "").slice(0, 500),
        byOperator: payload.byOperator,
        url,
      },
    },
    { dedupeKey },
  );
}
