import { owner, type Row } from "./access-rows.ts";

/**
 * A creator's sale and its refunds (issue 21): the sale's creator only; to anyone else the sale does
 * not exist. The creator's refund is a cent, so the sale stays paid for the rows that follow.
 */
export const saleRows: Record<string, Row> = {
  "GET /sales/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/sales/${world.creator.sale.orderId}` }),
  },
  "POST /sales/:id/refunds": {
    expect: owner(202),
    request: ({ world }) => ({
      url: `/sales/${world.creator.sale.orderId}/refunds`,
      payload: { amountMinor: 1, reason: "A cent back, for the access matrix." },
    }),
  },
};
