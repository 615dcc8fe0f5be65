import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { orderStatusSchema } from "./checkout.ts";
import { transactionKinds, userAccounts } from "./ledger.ts";

/*
 * The wallet (spec: `/transactions`, `/account/wallet`, the `/account` dashboard home). Every
 * figure is a sum of ledger entries, in minor units of its currency.
 */

export { type TransactionKind, transactionKinds } from "./ledger.ts";
/** The accounts a user's movements are in. */
export const ledgerAccountNames = userAccounts;
export const transactionKindSchema = z.enum(transactionKinds);

export const walletBalanceSchema = z.object({
  currency: currencySchema,
  pending: z.number().int(),
  available: z.number().int(),
  inTransit: z.number().int(),
  affiliatePending: z.number().int(),
  affiliateClaimable: z.number().int(),
  /** Commissions of creators' partner programmes: in the hold, then claimable (POST /programmes/claim). */
  partnerPending: z.number().int(),
  partnerClaimable: z.number().int(),
  /**
   * What the user owes (issue 32): negative, or 0. A refund or a dispute that found the money
   * already gone; repaid first from what next becomes available, and payouts wait until then.
   */
  debt: z.number().int().max(0),
});

/** How many held sales GET /wallet lists, the soonest available first (the pending balance counts all). */
export const walletHeldShown = 20;

/** GET /wallet */
export const walletSchema = z.object({
  balances: z.array(walletBalanceSchema),
  /** The sales still held, the 20 soonest available: how much, until when, and why (the refund window). */
  held: z
    .array(
      z.object({
        orderId: z.uuid(),
        title: z.string(),
        amount: z.number().int(),
        currency: currencySchema,
        availableAt: z.iso.datetime(),
      }),
    )
    .max(walletHeldShown),
  holdDays: z.number().int(),
});
export type Wallet = z.infer<typeof walletSchema>;

/** GET /transactions?cursor=&limit=&kind=&currency=&from=&to= (and /transactions.csv, same filters). */
export const transactionListQuerySchema = z.object({
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  kind: transactionKindSchema.optional(),
  currency: currencySchema.optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;

export const transactionSchema = z.object({
  /** The ledger entry's id: the cursor of the next page. */
  id: z.number().int(),
  kind: transactionKindSchema,
  account: z.enum(ledgerAccountNames),
  amount: z.number().int(),
  currency: currencySchema,
  createdAt: z.iso.datetime(),
  availableAt: z.iso.datetime().nullable(),
  /** The sale it comes from, when it does. */
  orderId: z.uuid().nullable(),
  title: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;
export const transactionListSchema = z.object({
  items: z.array(transactionSchema),
  nextCursor: z.number().int().nullable(),
});
export type TransactionList = z.infer<typeof transactionListSchema>;

/** GET /sales/summary: the dashboard home. */
export const salesSummarySchema = z.object({
  salesCount: z.number().int(),
  /** Net of fees and refunds, per currency. */
  revenue: z.array(z.object({ currency: currencySchema, amount: z.number().int() })),
  /** The last 30 days, oldest first, one row per day and currency with sales. */
  days: z.array(
    z.object({
      date: z.iso.date(),
      currency: currencySchema,
      sales: z.number().int(),
      amount: z.number().int(),
    }),
  ),
  latestOrders: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      total: z.number().int(),
      currency: currencySchema,
      status: orderStatusSchema,
      paidAt: z.iso.datetime().nullable(),
      /** Shown masked: "b•••@example.com". */
      buyer: z.string(),
    }),
  ),
  /**
   * The count, revenue and days come from rollups refreshed every few seconds (decision 031):
   * every sale committed before this time is in them. The latest orders are read live.
   */
  asOf: z.iso.datetime(),
});
export type SalesSummary = z.infer<typeof salesSummarySchema>;
