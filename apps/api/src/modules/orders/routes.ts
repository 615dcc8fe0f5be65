import {
  adminOrderListQuerySchema,
  adminOrderListSchema,
  adminReasonBodySchema,
  messageResponseSchema,
  orderViewSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { loopbackOnly } from "../../plugins/dev-routes.ts";
import { type OrderDeps, orderByToken, refundOrder, releaseHoldsAsOf, searchOrders } from "./service.ts";

/*
 * An order after its payment: the buyer's page, the console's search and refund. A refund goes
 * through the provider: its event reverses the ledger once (events.ts).
 */
export const orderRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const { db, config } = deps;

  app.get(
    "/orders/:token",
    {
      schema: {
        tags: ["orders"],
        summary: "The buyer's order (the receipt's secret link), with short-lived links to its files",
        params: z.object({ token: z.string().max(128) }),
        response: { 200: orderViewSchema },
      },
    },
    async (request, reply) => {
      // The signed URLs inside expire: never cached, never referred to another site.
      reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer");
      return orderByToken(deps, request.params.token);
    },
  );

  app.get(
    "/admin/orders",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Orders, newest first: search by order id, buyer e-mail, link title or creator e-mail",
        querystring: adminOrderListQuerySchema,
        response: { 200: adminOrderListSchema },
      },
    },
    async (request) => searchOrders(db, request.query),
  );

  app.post(
    "/admin/orders/:id/refund",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Refund a paid order in full, with a reason (applied when the provider confirms it)",
        params: z.object({ id: z.uuid() }),
        body: adminReasonBodySchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = await request.requireUser();
      await refundOrder(deps, { adminId: admin.id, orderId: request.params.id, reason: request.body.reason });
      return reply.code(202).send({ message: request.t("The refund has been asked for.") });
    },
  );

  // Anonymous and it makes pending money withdrawable: DEV_ROUTES only, loopback clients only.
  if (config.DEV_ROUTES) {
    app.post(
      "/dev/holds/release",
      {
        onRequest: loopbackOnly,
        schema: {
          tags: ["dev"],
          summary: "Development only: release the holds that would be over at a given time",
          // orderIds: only these sales (tests running side by side leave each other's holds alone).
          body: z.object({ asOf: z.iso.datetime(), orderIds: z.array(z.uuid()).min(1).max(100).optional() }),
          response: { 200: z.object({ released: z.number().int() }) },
        },
      },
      async (request) => ({
        released: await releaseHoldsAsOf(db, new Date(request.body.asOf), request.body.orderIds),
      }),
    );
  }
};
