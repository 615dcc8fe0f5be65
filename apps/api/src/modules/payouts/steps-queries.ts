import { type PayoutStep, type PayoutStepDetail, payoutStepKinds } from "@salelink/contracts";
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { payoutSteps } from "../../db/schema/index.ts";

/* A payout's timeline: appended in the transaction of the step itself, never changed. */

type StepKind = PayoutStep["step"];

export async function insertStep(
  tx: DbOrTx,
  payoutId: string,
  step: StepKind,
  detail: PayoutStepDetail = {},
  at = new Date(),
): Promise<void> {
  await tx.insert(payoutSteps).values({ payoutId, step, detail, at });
}

/** In the order they happened; the caller has checked the payout is the reader's. */
export async function stepsOf(db: DbOrTx, payoutId: string): Promise<PayoutStep[]> {
  const rows = await db
    .select({ step: payoutSteps.step, at: payoutSteps.at, detail: payoutSteps.detail })
    .from(payoutSteps)
    .where(eq(payoutSteps.payoutId, payoutId))
    .orderBy(asc(payoutSteps.at));
  // Steps of one transaction share their instant: the life cycle's order breaks the tie.
  const rank = (step: StepKind) => payoutStepKinds.indexOf(step);
  return rows
    .sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a.step) - rank(b.step))
    .map((r) => ({ step: r.step, at: r.at.toISOString(), detail: r.detail }));
}
