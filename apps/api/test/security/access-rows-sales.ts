import { freshSale } from "./access-fresh.ts";
import { owner, type Row } from "./access-rows.ts";

/**
 * A creator's sale and its refunds (issue 21): the sale's creator only; to anyone else the sale does
 * not exist. The creator's refund is a cent of a sale of its own.
 */
export const saleRows: Record<string, Row> = {
  "GET /sales/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/sales/${world.creator.sale.orderId}` }),
  },
  "POST /sales/:id/refunds": {
    expect: owner(202),
    // A sale still held: the shared one's money may have been withdrawn by then, and a refund that
    // would leave the creator owing is refused (decision 042).
    prepare: async (world) => ({ id: (await freshSale(world)).orderId }),
    request: ({ prepared }) => ({
      url: `/sales/${prepared.id}/refunds`,
      payload: { amountMinor: 1, reason: "A cent back, for the access matrix." },
    }),
  },
};
