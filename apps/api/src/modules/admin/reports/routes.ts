import {
  adminReasonBodySchema,
  adminReportListQuerySchema,
  adminReportListSchema,
  adminReportSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type AdminReportDeps, dismissReport, listReports, reportView, takeDown } from "./service.ts";

/** The reports queue: read, dismiss, take the link down. */
export const adminReportRoutes: FastifyPluginAsyncZod<AdminReportDeps> = async (app, deps) => {
  const { db } = deps;
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;
  const params = z.object({ id: z.uuid() });

  app.get(
    "/admin/reports",
    {
      config,
      schema: {
        tags,
        summary: "Reports: the open queue oldest first, handled ones newest first, with the content",
        querystring: adminReportListQuerySchema,
        response: { 200: adminReportListSchema },
      },
    },
    async (request) => listReports(db, request.query),
  );

  app.post(
    "/admin/reports/:id/dismiss",
    {
      config,
      schema: {
        tags,
        summary: "Dismiss an open report, with a note",
        params,
        body: adminReasonBodySchema,
        response: { 200: adminReportSchema },
      },
    },
    async (request) => {
      const admin = await request.requireUser();
      await dismissReport(db, admin.id, request.params.id, request.body.reason);
      return reportView(db, request.params.id);
    },
  );

  app.post(
    "/admin/reports/:id/takedown",
    {
      config,
      schema: {
        tags,
        summary: "Take the reported link down (buyers who paid keep access) and tell its creator",
        params,
        body: adminReasonBodySchema,
        response: { 200: adminReportSchema },
      },
    },
    async (request) => {
      const admin = await request.requireUser();
      await takeDown(deps, admin.id, request.params.id, request.body.reason);
      return reportView(db, request.params.id);
    },
  );
};
