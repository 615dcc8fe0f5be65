import {
  devMailListQuerySchema,
  devMailListSchema,
  devMailMessageSchema,
  devMailParamsSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import type { MailEnv } from "../../providers/mail/index.ts";
import { findLinks } from "./format.ts";
import { getOutboxMessage, listOutbox } from "./queries.ts";

/**
 * The outbox holds live links (password resets) of every account and the routes have no auth:
 * they exist only where the outbox is the provider and never in production.
 */
export function devMailEnabled(nodeEnv: string, provider: MailEnv["MAIL_PROVIDER"]): boolean {
  return provider === "outbox" && nodeEnv !== "production";
}

/** The dev mail page's API: read what the outbox provider kept instead of sending. */
export const devMailRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/dev/mail",
    {
      schema: {
        tags: ["dev"],
        summary: "E-mails kept by the outbox mail provider, newest first (development only)",
        querystring: devMailListQuerySchema,
        response: { 200: devMailListSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const rows = await listOutbox(db, request.query);
      return {
        messages: rows.map(({ text, createdAt, ...row }) => ({
          ...row,
          createdAt: createdAt.toISOString(),
          links: findLinks(text),
        })),
      };
    },
  );

  app.get(
    "/dev/mail/:id",
    {
      schema: {
        tags: ["dev"],
        summary: "One e-mail kept by the outbox mail provider, with its HTML (development only)",
        params: devMailParamsSchema,
        response: { 200: devMailMessageSchema },
      },
    },
    async (request, reply) => {
      const message = await getOutboxMessage(db, request.params.id);
      if (!message) throw notFound("E-mail");
      reply.header("cache-control", "no-store");
      return { ...message, createdAt: message.createdAt.toISOString(), links: findLinks(message.text) };
    },
  );
};
