import { orderViewSchema } from "@salelink/contracts";
import { adminOnly, open, type Row, signedIn } from "./access-rows.ts";

/**
 * Invoices, statements and the One-Stop Shop report (issue 22). An invoice is behind its order's
 * token, like the order page: whoever holds it gets the PDF. A statement is the signed-in account's
 * own (another's cannot be named); the VAT report is the admins'.
 */
const month = () => new Date().toISOString().slice(0, 7);

export const invoiceRows: Record<string, Row> = {
  "GET /orders/:token/invoices/:invoiceId.pdf": {
    expect: open(200),
    request: async ({ world }) => {
      const token = world.creator.sale.orderToken;
      const view = orderViewSchema.parse((await world.ctx.app.inject(`/orders/${token}`)).json());
      const invoice = view.invoices[0];
      if (!invoice) throw new Error("the world's sale has no invoice");
      return { url: `/orders/${token}/invoices/${invoice.id}.pdf` };
    },
  },
  "GET /statements/:year-:month.pdf": {
    expect: signedIn(200),
    request: () => ({ url: `/statements/${month()}.pdf` }),
  },
  "GET /admin/vat/oss": { expect: adminOnly(200), request: () => ({ url: "/admin/vat/oss" }) },
  "GET /admin/vat/oss.csv": { expect: adminOnly(200), request: () => ({ url: "/admin/vat/oss.csv" }) },
};
