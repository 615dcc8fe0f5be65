import {
  adminDisputeListQuerySchema,
  adminDisputeListSchema,
  disputeNoteBodySchema,
  disputeParamsSchema,
  disputeViewSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../../db/client.ts";
import { adminDisputes, setDisputeNote } from "./views.ts";

/*
 * Chargebacks on screen (issue 32): the creator adds a note to a dispute's evidence before it leaves
 * (the sale's page reads the disputes with the sale), the admin lists every dispute with each
 * creator's dispute rate.
 */
export const disputeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.put(
    "/sales/:id/disputes/:disputeId/note",
    {
      config: { auth: "user" },
      schema: {
        tags: ["sales"],
        summary: "Add my note to a dispute of one of my sales, sent with its evidence (until it leaves)",
        params: disputeParamsSchema,
        body: disputeNoteBodySchema,
        response: { 200: disputeViewSchema },
      },
    },
    async (request) =>
      setDisputeNote(
        db,
        (await request.requireUser()).id,
        { orderId: request.params.id, disputeId: request.params.disputeId },
        request.body.note,
      ),
  );

  app.get(
    "/admin/disputes",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Disputes, newest first, with each creator's dispute rate over 90 days",
        querystring: adminDisputeListQuerySchema,
        response: { 200: adminDisputeListSchema },
      },
    },
    async (request) => adminDisputes(db, request.query),
  );
};
