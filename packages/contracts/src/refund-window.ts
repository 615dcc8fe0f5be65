import { z } from "zod";

/*
 * A link's refund window (issue 21), apart from refunds.ts: the link contracts carry it, and
 * refunds.ts reads checkout's, which reads the catalogue's (one file would make an import cycle).
 */

/** A link's refund window, in days after the sale: 0 (no refunds by the creator) to 60. */
export const REFUND_WINDOW_MAX_DAYS = 60;
export const REFUND_WINDOW_DEFAULT_DAYS = 30;
export const refundWindowDaysSchema = z.number().int().min(0).max(REFUND_WINDOW_MAX_DAYS);
