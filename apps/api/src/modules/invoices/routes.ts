import { orderInvoiceParamsSchema, statementParamsSchema } from "@salelink/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { orderInvoicePdf, type PdfFile } from "./downloads.ts";
import { creatorStatementPdf } from "./statements.ts";

/** A PDF as a download: never cached (an invoice is personal data), never referred on. */
function sendPdf(reply: FastifyReply, file: PdfFile) {
  return reply
    .type("application/pdf")
    .header("content-disposition", `attachment; filename="${file.filename}"`)
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .send(file.body);
}

/*
 * Invoices and statements as PDFs (issue 22). A buyer's invoice is behind the order's token, as
 * the order page is (the library lists its orders by their tokens, so its links are the same); a
 * creator's monthly statement behind their session.
 */
export const invoiceRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    "/orders/:token/invoices/:invoiceId.pdf",
    {
      schema: {
        tags: ["orders"],
        summary: "An invoice or credit note of the order (the receipt's secret link), as a PDF",
        params: orderInvoiceParamsSchema,
      },
    },
    async (request, reply) =>
      sendPdf(reply, await orderInvoicePdf(db, request.params.token, request.params.invoiceId)),
  );

  app.get(
    "/statements/:year-:month.pdf",
    {
      config: { auth: "user" },
      schema: {
        tags: ["wallet"],
        summary:
          "My monthly statement (a calendar month in UTC): sales, VAT, fees, commissions, refunds, net",
        params: statementParamsSchema,
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const file = await creatorStatementPdf(db, config, {
        creatorId: user.id,
        month: `${request.params.year}-${request.params.month}`,
        locale: request.locale,
        now: new Date(),
      });
      return sendPdf(reply, file);
    },
  );
};
