import {
  messageResponseSchema,
  saleParamsSchema,
  saleRefundBodySchema,
  saleViewSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { askRefund, type RefundDeps, saleOf } from "./service.ts";

/*
 * A creator's sale and its refunds (issue 21). Only the sale's creator reads or refunds it; another
 * account's sale is "not found", as one that does not exist.
 */
export const saleRefundRoutes: FastifyPluginAsyncZod<RefundDeps> = async (app, deps) => {
  const config = { auth: "user" } as const;

  app.get(
    "/sales/:id",
    {
      config,
      schema: {
        tags: ["sales"],
        summary: "One of my sales: its figures, its refunds, and what may still be refunded, until when",
        params: saleParamsSchema,
        response: { 200: saleViewSchema },
      },
    },
    async (request) => saleOf(deps.db, (await request.requireUser()).id, request.params.id),
  );

  app.post(
    "/sales/:id/refunds",
    {
      config,
      schema: {
        tags: ["sales"],
        summary:
          "Refund one of my sales, in full or in part, within its link's refund window (applied when the provider confirms it)",
        params: saleParamsSchema,
        body: saleRefundBodySchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      await askRefund(deps, request.params.id, {
        by: "creator",
        creatorId: user.id,
        amountMinor: request.body.amountMinor,
        reason: request.body.reason,
        locale: request.locale,
      });
      return reply.code(202).send({ message: request.t("The refund has been asked for.") });
    },
  );
};
