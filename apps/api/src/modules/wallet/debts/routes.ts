import { adminDebtListSchema, debtWriteOffBodySchema, debtWriteOffResultSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../../db/client.ts";
import { adminDebts, writeOffDebt } from "./service.ts";

/* The operators' view of what users owe (decision 042): the list with its totals, and write-offs. */
export const adminDebtRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;

  app.get(
    "/admin/debts",
    {
      config,
      schema: {
        tags,
        summary: "What users owe the platform: each debt with its causes, the totals and the write-offs",
        response: { 200: adminDebtListSchema },
      },
    },
    async () => adminDebts(db),
  );

  app.post(
    "/admin/debts/write-off",
    {
      config,
      schema: {
        tags,
        summary: "Write off the whole debt of one account in one currency (audited, with a reason)",
        body: debtWriteOffBodySchema,
        response: { 200: debtWriteOffResultSchema },
      },
    },
    async (request) => ({
      amount: await writeOffDebt(db, (await request.requireUser()).id, request.body),
    }),
  );
};
