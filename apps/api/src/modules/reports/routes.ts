import { messageResponseSchema, reportBodySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { fileReport, reporterKey } from "./service.ts";

/** Anyone on a link or order page reports it to the platform's team (reviewed in admin/reports). */
export const reportRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.post(
    "/report",
    {
      config: {
        rateLimit: {
          max: 20,
          timeWindow: 60 * 60 * 1000,
          keyGenerator: (request) => `report:${request.ip}`,
        },
      },
      schema: {
        tags: ["orders"],
        summary: "Report a link or an order to the platform's team",
        body: reportBodySchema,
        response: { 201: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await fileReport(
        db,
        {
          ...request.body,
          reporterKey: reporterKey(config.appSecret, request.ip, request.headers["user-agent"]),
        },
        { perDay: config.REPORTS_PER_DAY_MAX },
      );
      return reply.code(201).send({ message: request.t("Thank you. Our team will look at your report.") });
    },
  );
};
