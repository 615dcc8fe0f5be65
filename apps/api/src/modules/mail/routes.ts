import {
  devMailListQuerySchema,
  devMailListSchema,
  devMailMessageSchema,
  devMailParamsSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../lib/errors.ts";
import { loopbackOnly } from "../../plugins/dev-routes.ts";
import { findLinks } from "./format.ts";
import { getOutboxMessage, listOutbox } from "./queries.ts";

/**
 * The outbox holds live links (password resets) of every account and the routes have no auth:
 * they exist only when DEV_ROUTES turns them on (never in production, config.ts refuses it) and the
 * outbox is the provider, and answer loopback clients only.
 */
export function devMailEnabled(config: {
  DEV_ROUTES: boolean;
  mail: Pick<Config["mail"], "MAIL_PROVIDER">;
}): boolean {
  return config.DEV_ROUTES && config.mail.MAIL_PROVIDER === "outbox";
}

/** The dev mail page's API: read what the outbox provider kept instead of sending. */
export const devMailRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("onRequest", loopbackOnly);

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
