import {
  notificationSettingsBodySchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.ts";
import { type NotificationConfig, notificationSettingsOf, saveNotificationSettings } from "./service.ts";

/** The account's e-mail notifications: how a creator hears of their sales (issue 21). */
export const notificationRoutes: FastifyPluginAsyncZod<{ db: Db; config: NotificationConfig }> = async (
  app,
  { db, config },
) => {
  const tags = ["profile"];

  app.get(
    "/profile/notifications",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "How the account hears of its sales: an e-mail each, a daily digest, or none",
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return notificationSettingsOf(db, (await request.requireUser()).id);
    },
  );

  app.put(
    "/profile/notifications",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "Choose how the account hears of its sales",
        body: notificationSettingsBodySchema,
        response: { 200: notificationSettingsSavedSchema },
      },
    },
    async (request) => {
      const saved = await saveNotificationSettings(
        db,
        config,
        (await request.requireUser()).id,
        request.body,
      );
      return { ...saved, message: request.t("Notification settings saved.") };
    },
  );
};
