import {
  type BankAccount,
  bankAccountListSchema,
  bankAccountSchema,
  catalogueIdParamsSchema,
  createBankAccountBodySchema,
  messageResponseSchema,
} from "@salelink/contracts";
import { asc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { bankAccounts } from "../../db/schema/index.ts";
import { SecretBox } from "../../lib/secret-box.ts";
import { affiliateIbanAdded } from "../affiliates/account-events.ts";
import { maskIban } from "./queries.ts";
import { deleteBankAccount } from "./service.ts";

/** The key that seals IBANs at rest; separate from the 2FA seeds' own. */
export const ibanBox = (config: Config) => new SecretBox(config.appSecret, "iban");

const columns = {
  id: bankAccounts.id,
  holderName: bankAccounts.holderName,
  ibanCountry: bankAccounts.ibanCountry,
  ibanLast4: bankAccounts.ibanLast4,
  bic: bankAccounts.bic,
  createdAt: bankAccounts.createdAt,
};

function toBankAccount(row: {
  id: string;
  holderName: string;
  ibanCountry: string;
  ibanLast4: string;
  bic: string | null;
  createdAt: Date;
}): BankAccount {
  return {
    id: row.id,
    holderName: row.holderName,
    ibanMasked: maskIban(row.ibanCountry, row.ibanLast4),
    country: row.ibanCountry,
    bic: row.bic,
    createdAt: row.createdAt.toISOString(),
  };
}

/** "Create IBAN section" and "bank delete account": the owner's bank accounts, never shown in full. */
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
    async (request) => {
      const user = await request.requireUser();
      const rows = await db
        .select(columns)
        .from(bankAccounts)
        .where(eq(bankAccounts.ownerId, user.id))
        .orderBy(asc(bankAccounts.createdAt));
      return { items: rows.map(toBankAccount) };
    },
  );

  app.post(
    "/profile/bank-accounts",
    {
      config: auth,
      schema: {
        tags,
        summary: "Add a bank account (an IBAN of the 30 European countries)",
        body: createBankAccountBodySchema,
        response: { 201: bankAccountSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const { holderName, iban, bic } = request.body;
      // With the IBAN's self-referral check (issue 16): one transaction, so a match voids at once.
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(bankAccounts)
          .values({
            ownerId: user.id,
            holderName,
            ibanSealed: ibanBox(config).seal(iban),
            ibanCountry: iban.slice(0, 2),
            ibanLast4: iban.slice(-4),
            bic: bic ?? null,
          })
          .returning(columns);
        if (!inserted) throw new Error("bank account not inserted");
        await affiliateIbanAdded(tx, config, user.id, iban);
        return inserted;
      });
      return reply.code(201).send(toBankAccount(row));
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
