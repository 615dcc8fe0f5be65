import { isLocale, type Locale } from "@salelink/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { translate } from "../i18n/messages.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The language of the person calling: the web app's X-Locale, else Accept-Language, else English. */
    locale: Locale;
    t(text: string, params?: Record<string, string | number>): string;
  }
}

export function requestLocale(request: Pick<FastifyRequest, "headers">): Locale {
  const explicit = request.headers["x-locale"];
  if (typeof explicit === "string" && isLocale(explicit)) return explicit;
  const header = request.headers["accept-language"];
  if (typeof header === "string") {
    for (const part of header.split(",")) {
      const tag = part.split(";")[0]?.trim().toLowerCase().split("-")[0];
      if (isLocale(tag)) return tag;
    }
  }
  return "en";
}

export const i18nPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest("locale", "en");
    app.decorateRequest(
      "t",
      function (this: FastifyRequest, text: string, params?: Record<string, string | number>) {
        return translate(this.locale, text, params);
      },
    );
    app.addHook("onRequest", async (request) => {
      request.locale = requestLocale(request);
    });
  },
  { name: "i18n" },
);
