import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { disputeStatusSchema } from "./disputes.ts";

/*
 * The admin's view of what users owe the platform (issue 32, decision 042): every debt with its
 * causes and a total per currency, and writing one off.
 */

export const debtCauses = ["refund", "dispute", "dispute_fee"] as const;
export const debtCauseSchema = z.enum(debtCauses);

/** GET /admin/debts */
export const adminDebtSchema = z.object({
  user: z.object({ id: z.uuid(), email: z.string() }),
  currency: currencySchema,
  /** Owed, in minor units (positive). */
  amount: z.number().int().positive(),
  /** When the debt last rose from zero. */
  since: z.iso.datetime(),
  /** The reversals it is made of since then, oldest first: what each added to it, and the sale. */
  sources: z.array(
    z.object({
      cause: debtCauseSchema,
      orderId: z.uuid().nullable(),
      amount: z.number().int().positive(),
      at: z.iso.datetime(),
    }),
  ),
});
export type AdminDebt = z.infer<typeof adminDebtSchema>;
export const adminDebtListSchema = z.object({
  items: z.array(adminDebtSchema),
  /** What all users owe, per currency: the platform's receivable. */
  totals: z.array(z.object({ currency: currencySchema, amount: z.number().int() })),
  /** What operators wrote off so far, per currency. */
  writtenOff: z.array(z.object({ currency: currencySchema, amount: z.number().int() })),
});
export type AdminDebtList = z.infer<typeof adminDebtListSchema>;

/** POST /admin/debts/write-off: the whole debt of one user in one currency. */
export const debtWriteOffBodySchema = z.object({
  userId: z.uuid(),
  currency: currencySchema,
  reason: z.string().trim().min(3).max(500),
});
export type DebtWriteOffBody = z.infer<typeof debtWriteOffBodySchema>;
export const debtWriteOffResultSchema = z.object({ amount: z.number().int().positive() });

/** GET /admin/disputes: every dispute, newest first, with each creator's dispute rate. */
export const adminDisputeListQuerySchema = z.object({
  status: disputeStatusSchema.optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
