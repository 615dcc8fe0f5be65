import {
  creatorPageSchema,
  creatorParamsSchema,
  publicLinkParamsSchema,
  publicLinkSchema,
  quoteBodySchema,
  quoteResponseSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { PUBLIC_READ_CACHE_CONTROL } from "../../../lib/cache-control.ts";
import { isWrongPromoCode, promoAttempts } from "../promo/limits.ts";
import { quote } from "../promo/service.ts";
import type { CatalogueDeps } from "../service.ts";
import { creatorPage, publicLink } from "./service.ts";

/** What anyone may read without an account: a link before paying, its price, a creator's page. */
export const publicCatalogueRoutes: FastifyPluginAsyncZod<CatalogueDeps> = async (app, deps) => {
  const promoGuard = promoAttempts(app, deps.config);

  const publicTags = ["public"];
  app.get(
    "/public/links/:token",
    {
      schema: {
        tags: publicTags,
        summary: "What a buyer sees of a link before paying (404 unless it is on sale)",
        params: publicLinkParamsSchema,
        response: { 200: publicLinkSchema },
      },
    },
    async (request, reply) => {
      // Set first, so a 404 is cached as briefly as a hit: bad tokens do not reach the database each time.
      reply.header("cache-control", PUBLIC_READ_CACHE_CONTROL);
      return publicLink(deps, request.params.token);
    },
  );

  app.post(
    "/public/links/:token/quote",
    {
      // A quote changes nothing (the code is used at checkout), so buyers may ask during maintenance.
      config: { maintenance: "allow" },
      schema: {
        tags: publicTags,
        summary: "The price to pay for a link, with an optional promo code",
        params: publicLinkParamsSchema,
        body: quoteBodySchema,
        response: { 200: quoteResponseSchema },
      },
    },
    async (request) => {
      // Wrong codes are counted per address and per link: past the limit, no code is tried at all.
      if (!request.body.promoCode) return quote(deps, request.params.token, request.body);
      await promoGuard.assertAllowed(request);
      try {
        return await quote(deps, request.params.token, request.body);
      } catch (error) {
        if (isWrongPromoCode(error)) await promoGuard.failed(request);
        throw error;
      }
    },
  );

  app.get(
    "/creators/:idOrHandle",
    {
      schema: {
        tags: publicTags,
        summary: "A creator page: the profile and its portfolio",
        params: creatorParamsSchema,
        response: { 200: creatorPageSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", PUBLIC_READ_CACHE_CONTROL);
      return creatorPage(deps, request.params.idOrHandle);
    },
  );
};
