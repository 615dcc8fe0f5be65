import {
  catalogueIdParamsSchema,
  createPromoCodeBodySchema,
  messageResponseSchema,
  promoCodeListResponseSchema,
  promoCodeSchema,
  updatePromoCodeBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { CatalogueDeps } from "../service.ts";
import { createPromoCode, deletePromoCode, listPromoCodes, updatePromoCode } from "./service.ts";

const tags = ["promo-codes"];

export const promoCodeRoutes: FastifyPluginAsyncZod<CatalogueDeps> = async (app, { db }) => {
  const config = { auth: "user" } as const;

  app.get(
    "/promo-codes",
    { config, schema: { tags, summary: "My promo codes", response: { 200: promoCodeListResponseSchema } } },
    async (request) => ({ items: await listPromoCodes(db, (await request.requireUser()).id) }),
  );

  app.post(
    "/promo-codes",
    {
      config,
      schema: {
        tags,
        summary: "Create a promo code",
        body: createPromoCodeBodySchema,
        response: { 201: promoCodeSchema },
      },
    },
    async (request, reply) => {
      const code = await createPromoCode(db, (await request.requireUser()).id, request.body);
      return reply.code(201).send(code);
    },
  );

  app.patch(
    "/promo-codes/:id",
    {
      config,
      schema: {
        tags,
        summary: "Edit one of my promo codes",
        params: catalogueIdParamsSchema,
        body: updatePromoCodeBodySchema,
        response: { 200: promoCodeSchema },
      },
    },
    async (request) => updatePromoCode(db, (await request.requireUser()).id, request.params.id, request.body),
  );

  app.delete(
    "/promo-codes/:id",
    {
      config,
      schema: {
        tags,
        summary: "Delete one of my promo codes",
        params: catalogueIdParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await deletePromoCode(db, (await request.requireUser()).id, request.params.id);
      return { message: request.t("Promo code deleted.") };
    },
  );
};
