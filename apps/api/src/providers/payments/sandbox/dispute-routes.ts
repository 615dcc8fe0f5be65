import {
  sandboxDisputeBodySchema,
  sandboxDisputeDecisionBodySchema,
  sandboxDisputeResultSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { sandboxDisputes } from "./dispute-service.ts";

/*
 * The sandbox card issuer's controls (issue 32), registered only when the sandbox takes payments:
 * the buyer disputes a payment from their order page, an operator plays the bank's decision from
 * the admin's disputes screen. Both labelled as the sandbox's on screen.
 */
export const sandboxDisputeRoutes: FastifyPluginAsyncZod<{
  db: Db;
  feeMinor: number;
  pokeJobs(): void;
}> = async (app, { db, feeMinor, pokeJobs }) => {
  app.post(
    "/sandbox/orders/:token/dispute",
    {
      schema: {
        tags: ["sandbox"],
        summary: "The sandbox buyer asks their bank to dispute the payment of an order",
        params: z.object({ token: z.string().min(20).max(200) }),
        body: sandboxDisputeBodySchema,
        response: { 201: sandboxDisputeResultSchema },
      },
    },
    async (request, reply) => {
      const opened = await sandboxDisputes.byOrderToken(
        db,
        request.params.token,
        request.body.reason,
        feeMinor,
      );
      pokeJobs();
      return reply.code(201).send(opened);
    },
  );

  app.post(
    "/admin/sandbox/disputes/:id/decide",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["sandbox"],
        summary: "The sandbox's bank decides a dispute: won or lost",
        // Any id: one the sandbox never made is not found.
        params: z.object({ id: z.string().min(1).max(100) }),
        body: sandboxDisputeDecisionBodySchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await sandboxDisputes.decide(db, request.params.id, request.body.outcome);
      pokeJobs();
      return reply.code(204).send(null);
    },
  );
};
