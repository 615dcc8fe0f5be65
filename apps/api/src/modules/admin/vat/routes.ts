import { vatOssQuerySchema, vatOssReportSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../../db/client.ts";
import { exportOss, ossReport } from "./service.ts";

/** The One-Stop Shop figures of a quarter (issue 22): on screen, and as a CSV for the return. */
export const adminVatRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/admin/vat/oss",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary:
          "A quarter's VAT per member state and rate (the current one by default), checked against the ledger",
        querystring: vatOssQuerySchema,
        response: { 200: vatOssReportSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return ossReport(db, request.query, new Date());
    },
  );

  app.get(
    "/admin/vat/oss.csv",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "The same figures as a CSV download (formula-safe); the download is audited",
        querystring: vatOssQuerySchema,
      },
    },
    async (request, reply) => {
      const admin = await request.requireUser();
      const { report, body } = await exportOss(db, admin.id, request.query, new Date());
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="vat-oss-${report.quarter}.csv"`)
        .header("cache-control", "no-store")
        .send(body);
    },
  );
};
