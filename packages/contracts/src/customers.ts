import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { orderStatusSchema } from "./checkout.ts";

/*
 * The creator's customers (issue 21): one row per buyer address of the creator's links, with their
 * first and last purchase, their count of orders and what they paid (net of refunds), searched,
 * filtered by link, paged, exported as CSV, and one customer's orders.
 */

export const CUSTOMER_LIST_DEFAULT_LIMIT = 25;
export const CUSTOMER_LIST_MAX_LIMIT = 100;
export const CUSTOMER_SEARCH_MAX = 200;
/** The furthest a list may be paged: deeper than this, search or filter. */
export const CUSTOMER_LIST_MAX_OFFSET = 100_000;

/** Last purchase (newest first, the default), first purchase (newest first), or most orders. */
export const customerSortKeys = ["last", "first", "orders"] as const;
export const customerSortKeySchema = z.enum(customerSortKeys);
export type CustomerSortKey = z.infer<typeof customerSortKeySchema>;

/** What the list and the export are filtered by: part of the address, and one of the creator's links. */
export const customerFilterSchema = z.object({
  q: z.string().trim().max(CUSTOMER_SEARCH_MAX).optional(),
  linkId: z.uuid().optional(),
});
export type CustomerFilter = z.infer<typeof customerFilterSchema>;

/** GET /customers?q=&linkId=&sort=&offset=&limit= */
export const customerListQuerySchema = customerFilterSchema.extend({
  sort: customerSortKeySchema.default("last"),
  offset: z.coerce.number().int().min(0).max(CUSTOMER_LIST_MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(CUSTOMER_LIST_MAX_LIMIT).default(CUSTOMER_LIST_DEFAULT_LIMIT),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

/** GET /customers/export.csv?q=&linkId= : every customer the filter matches. */
export const customerExportQuerySchema = customerFilterSchema;
export type CustomerExportQuery = z.infer<typeof customerExportQuerySchema>;

/** An amount per currency: what the customer paid, less what refunds took back. */
export const customerTotalSchema = z.object({ currency: currencySchema, amountMinor: z.number().int() });
export type CustomerTotal = z.infer<typeof customerTotalSchema>;

export const customerSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstPaidAt: z.iso.datetime(),
  lastPaidAt: z.iso.datetime(),
  ordersCount: z.number().int(),
  /** Sorted by currency; empty when every order was refunded in full. */
  totals: z.array(customerTotalSchema),
  /** When the buyer asked this creator for no more updates; null while they receive them. */
  unsubscribedAt: z.iso.datetime().nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerListSchema = z.object({
  items: z.array(customerSchema),
  total: z.number().int(),
  /** The offset of the next page; null on the last. */
  nextOffset: z.number().int().nullable(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

/** /customers/{id} */
export const customerParamsSchema = z.object({ id: z.uuid() });

export const customerOrderSchema = z.object({
  id: z.uuid(),
  linkId: z.uuid(),
  linkTitle: z.string(),
  status: orderStatusSchema,
  currency: currencySchema,
  totalMinor: z.number().int(),
  refundedMinor: z.number().int(),
  paidAt: z.iso.datetime(),
});
export type CustomerOrder = z.infer<typeof customerOrderSchema>;

/** GET /customers/{id}: the customer and their orders of this creator, newest first. */
export const customerDetailSchema = z.object({
  customer: customerSchema,
  orders: z.array(customerOrderSchema),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** The export's columns, in order (the file's first line). */
export const customerCsvColumns = [
  "email",
  "first_purchase",
  "last_purchase",
  "orders",
  "total_paid",
  "unsubscribed",
] as const;
