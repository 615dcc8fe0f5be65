import {
  PAYOUT_EXPORT_COUNT_HEADER,
  PAYOUT_EXPORT_SKIPPED_HEADER,
  payoutExportQuerySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { exportPayouts } from "./service.ts";

/** The payouts bank export (CSV or SEPA pain.001), a download with its counts in headers. */
export const adminExportRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    "/admin/payouts/export",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary:
          "Download payouts for the bank (processing by default): CSV, or SEPA pain.001 XML of the euro ones",
        querystring: payoutExportQuerySchema,
      },
    },
    async (request, reply) => {
      const admin = await request.requireUser();
      const { format, status } = request.query;
      const now = new Date();
      const file = await exportPayouts(db, config, admin.id, request.query, now);
      const day = now.toISOString().slice(0, 10);
      const [type, name] =
        format === "csv"
          ? ["text/csv; charset=utf-8", `payouts-${status}-${day}.csv`]
          : ["application/xml; charset=utf-8", `payouts-${status}-${day}.pain001.xml`];
      return reply
        .type(type)
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .header(PAYOUT_EXPORT_COUNT_HEADER, String(file.included.length))
        .header(PAYOUT_EXPORT_SKIPPED_HEADER, String(file.skipped))
        .send(file.body);
    },
  );
};
