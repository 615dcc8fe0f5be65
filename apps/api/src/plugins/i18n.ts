import { isLocale, type Locale } from "@salelink/contracts";
import { negotiateLocale } from "@salelink/contracts/locale-negotiation";
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
  // Quality values weighed, as the web app's pages do (decision 023).
  return negotiateLocale(request.headers["accept-language"]);
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
