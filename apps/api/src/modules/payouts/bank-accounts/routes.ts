import {
  bankAccountListSchema,
  bankAccountSchema,
  catalogueIdParamsSchema,
  createBankAccountBodySchema,
  messageResponseSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { addBankAccount, deleteBankAccount, listBankAccounts } from "./service.ts";

/**
 * "Create IBAN section" and "bank delete account": the owner's bank accounts, never shown in full;
 * since issue 23 also British and American accounts (the body's `kind`; none is an IBAN, as before).
 */
export const bankAccountRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  const auth = { auth: "user" } as const;
  const tags = ["payouts"];

  app.get(
    "/profile/bank-accounts",
    {
      config: auth,
      schema: { tags, summary: "My bank accounts (masked)", response: { 200: bankAccountListSchema } },
    },
    async (request) => listBankAccounts(db, (await request.requireUser()).id),
  );

  app.post(
    "/profile/bank-accounts",
    {
      config: auth,
      schema: {
        tags,
        summary:
          "Add a bank account: an IBAN (the 30 European countries, Switzerland in CHF or EUR), a UK account (GBP) or a US account (USD)",
        body: createBankAccountBodySchema,
        response: { 201: bankAccountSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      return reply.code(201).send(await addBankAccount(db, config, user.id, request.body));
    },
  );

  app.delete(
    "/profile/bank-accounts/:id",
    {
      config: auth,
      schema: {
        tags,
        summary: "Delete one of my bank accounts (refused while a withdrawal to it is in progress)",
        params: catalogueIdParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      await deleteBankAccount(db, user.id, request.params.id);
      return { message: request.t("Bank account deleted.") };
    },
  );
};
