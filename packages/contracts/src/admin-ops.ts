import { z } from "zod";
import { currencySchema } from "./business-rules.ts";
import { linkStatusSchema } from "./catalogue.ts";
import { orderStatusSchema, reportReasonSchema } from "./checkout.ts";
import { payoutStatusSchema } from "./payouts.ts";

/*
 * The admin console's reports queue, order search and payouts bank export (issue 8). Actions take
 * adminReasonBodySchema (admin.ts) and are written to the audit log.
 */

export const adminReportStatuses = ["open", "dismissed", "actioned"] as const;
export const adminReportStatusSchema = z.enum(adminReportStatuses);
export type AdminReportStatus = z.infer<typeof adminReportStatusSchema>;

/** GET /admin/reports?status=&cursor=&limit= : open ones oldest first (a queue), handled ones newest first. */
export const adminReportListQuerySchema = z.object({
  status: z.enum([...adminReportStatuses, "all"]).default("open"),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminReportListQuery = z.infer<typeof adminReportListQuerySchema>;

export const adminReportSchema = z.object({
  id: z.uuid(),
  status: adminReportStatusSchema,
  reason: reportReasonSchema,
  message: z.string(),
  createdAt: z.iso.datetime(),
  link: z.object({
    id: z.uuid(),
    title: z.string(),
    token: z.string(),
    status: linkStatusSchema,
    /** The creator deleted it: it can still be reported through an order, and dismissed. */
    deleted: z.boolean(),
    creator: z.object({ id: z.uuid(), email: z.string() }),
  }),
  /** The content in question, as the public link page shows it. */
  content: z.object({
    title: z.string(),
    description: z.string(),
    previewUrl: z.string().nullable(),
    coverUrl: z.string().nullable(),
  }),
  /** Set when the report came from an order page. */
  order: z
    .object({
      id: z.uuid(),
      status: orderStatusSchema,
      total: z.number().int(),
      currency: currencySchema,
      paidAt: z.iso.datetime().nullable(),
    })
    .nullable(),
  /** Who handled it, when, and the note; null while open. */
  handled: z
    .object({
      by: z.object({ id: z.uuid(), email: z.string() }).nullable(),
      at: z.iso.datetime(),
      note: z.string().nullable(),
    })
    .nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

export const adminReportListSchema = z.object({
  items: z.array(adminReportSchema),
  nextCursor: z.uuid().nullable(),
});
export type AdminReportList = z.infer<typeof adminReportListSchema>;

/** GET /admin/orders?q=&status=&cursor=&limit= : newest first. */
export const adminOrderListQuerySchema = z.object({
  /** An order id, or part of a buyer's e-mail, a link's title or a creator's e-mail. */
  q: z.string().trim().max(200).optional(),
  status: orderStatusSchema.optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminOrderListQuery = z.infer<typeof adminOrderListQuerySchema>;

export const adminOrderSchema = z.object({
  id: z.uuid(),
  status: orderStatusSchema,
  total: z.number().int(),
  currency: currencySchema,
  buyerEmail: z.string(),
  linkId: z.uuid(),
  linkTitle: z.string(),
  creator: z.object({ id: z.uuid(), email: z.string() }),
  /** "sandbox" or "stripe". */
  provider: z.string(),
  createdAt: z.iso.datetime(),
  paidAt: z.iso.datetime().nullable(),
  refundedAt: z.iso.datetime().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const adminOrderListSchema = z.object({
  items: z.array(adminOrderSchema),
  nextCursor: z.uuid().nullable(),
});
export type AdminOrderList = z.infer<typeof adminOrderListSchema>;

export const payoutExportFormats = ["csv", "pain001"] as const;
export const payoutExportFormatSchema = z.enum(payoutExportFormats);
export type PayoutExportFormat = z.infer<typeof payoutExportFormatSchema>;

/**
 * GET /admin/payouts/export?format=&status= : a file to download (CSV or pain.001 XML). Processing by
 * default: the approved payouts the operator is about to pay.
 */
export const payoutExportQuerySchema = z.object({
  format: payoutExportFormatSchema.default("csv"),
  status: payoutStatusSchema.default("processing"),
});
export type PayoutExportQuery = z.infer<typeof payoutExportQuerySchema>;

/** Response headers of the export: how many payouts the file holds, and how many were left out of it. */
export const PAYOUT_EXPORT_COUNT_HEADER = "x-export-count";
/** pain.001 is a SEPA (euro) transfer: payouts in other currencies, or without a full IBAN, are left out. */
export const PAYOUT_EXPORT_SKIPPED_HEADER = "x-export-skipped";
