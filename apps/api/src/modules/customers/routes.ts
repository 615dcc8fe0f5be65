import { Readable } from "node:stream";
import {
  customerDetailSchema,
  customerExportQuerySchema,
  customerListQuerySchema,
  customerListSchema,
  customerParamsSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type CustomerDeps, customerDetail, exportCustomers, listCustomers } from "./service.ts";

/*
 * The creator's customers screen (issue 21): the list, its CSV export and one customer's orders,
 * always of the session user's own links.
 */
export const customerRoutes: FastifyPluginAsyncZod<CustomerDeps> = async (app, deps) => {
  const { db } = deps;
  const config = { auth: "user" } as const;
  const tags = ["customers"];

  app.get(
    "/customers",
    {
      config,
      schema: {
        tags,
        summary: "My customers: one row per buyer address, searched, filtered by link, sorted and paged",
        querystring: customerListQuerySchema,
        response: { 200: customerListSchema },
      },
    },
    async (request) => listCustomers(deps, (await request.requireUser()).id, request.query),
  );

  app.get(
    "/customers/export.csv",
    {
      config,
      schema: {
        tags,
        summary: "Every customer the filter matches, as CSV (the download is kept in the audit trail)",
        querystring: customerExportQuerySchema,
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const rows = await exportCustomers(db, user.id, request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="customers-${day}.csv"`)
        .header("cache-control", "no-store")
        .send(Readable.from(rows));
    },
  );

  app.get(
    "/customers/:id",
    {
      config,
      schema: {
        tags,
        summary: "One of my customers with their orders of my links, newest first",
        params: customerParamsSchema,
        response: { 200: customerDetailSchema },
      },
    },
    async (request) => customerDetail(db, (await request.requireUser()).id, request.params.id),
  );
};
