import {
  catalogueIdParamsSchema,
  createLinkBodySchema,
  createProfileBodySchema,
  creatorProfileSchema,
  linkListQuerySchema,
  linkListResponseSchema,
  linkSchema,
  messageResponseSchema,
  portfolioBodySchema,
  portfolioResponseSchema,
  profileListResponseSchema,
  setProductTitleBodySchema,
  updateLinkBodySchema,
  updateProfileBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { promoCodeRoutes } from "./promo/routes.ts";
import { publicCatalogueRoutes } from "./public/routes.ts";
import * as service from "./service.ts";

/** Owner routes answer 404 for another account's rows (never 403): they reveal nothing. */
export const catalogueRoutes: FastifyPluginAsyncZod<service.CatalogueDeps> = async (app, deps) => {
  const { db } = deps;
  const auth = { auth: "user" } as const;

  // --- Profiles -------------------------------------------------------------------------------
  const profileTags = ["profiles"];
  app.get(
    "/profiles",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "My creator profiles",
        response: { 200: profileListResponseSchema },
      },
    },
    async (request) => ({ items: await service.listProfiles(db, (await request.requireUser()).id) }),
  );

  app.post(
    "/profiles",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "Create a creator profile",
        body: createProfileBodySchema,
        response: { 201: creatorProfileSchema },
      },
    },
    async (request, reply) => {
      const profile = await service.createProfile(deps, (await request.requireUser()).id, request.body);
      return reply.code(201).send(profile);
    },
  );

  app.patch(
    "/profiles/:id",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "Edit one of my creator profiles",
        params: catalogueIdParamsSchema,
        body: updateProfileBodySchema,
        response: { 200: creatorProfileSchema },
      },
    },
    async (request) =>
      service.updateProfile(deps, (await request.requireUser()).id, request.params.id, request.body),
  );

  app.delete(
    "/profiles/:id",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "Delete one of my creator profiles (refused while it has links)",
        params: catalogueIdParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await service.deleteProfile(deps, (await request.requireUser()).id, request.params.id);
      return { message: request.t("Profile deleted.") };
    },
  );

  app.get(
    "/profiles/:id/portfolio",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "The links shown on a profile's creator page, in order",
        params: catalogueIdParamsSchema,
        response: { 200: portfolioResponseSchema },
      },
    },
    async (request) => ({
      linkIds: await service.getPortfolio(db, (await request.requireUser()).id, request.params.id),
    }),
  );

  app.put(
    "/profiles/:id/portfolio",
    {
      config: auth,
      schema: {
        tags: profileTags,
        summary: "Choose and order the links shown on a profile's creator page",
        params: catalogueIdParamsSchema,
        body: portfolioBodySchema,
        response: { 200: portfolioResponseSchema },
      },
    },
    async (request) => ({
      linkIds: await service.setPortfolio(
        deps,
        (await request.requireUser()).id,
        request.params.id,
        request.body.linkIds,
      ),
    }),
  );

  // --- Links ----------------------------------------------------------------------------------
  const linkTags = ["links"];
  app.get(
    "/links",
    {
      config: auth,
      schema: {
        tags: linkTags,
        summary: "My links with their sales counts, newest first",
        querystring: linkListQuerySchema,
        response: { 200: linkListResponseSchema },
      },
    },
    async (request) => service.listLinks(db, (await request.requireUser()).id, request.query),
  );

  app.post(
    "/links",
    {
      config: auth,
      schema: {
        tags: linkTags,
        summary: "Create a sales link",
        body: createLinkBodySchema,
        response: { 201: linkSchema },
      },
    },
    async (request, reply) => {
      const link = await service.createLink(deps, (await request.requireUser()).id, request.body);
      return reply.code(201).send(link);
    },
  );

  // The spec's `/product` is the same link seen as the thing sold: one handler for both paths.
  for (const [path, summary] of [
    ["/links/:id", "One of my links"],
    ["/product/:id", "One of my products (the link with its file, preview and cover)"],
  ] as const) {
    app.get(
      path,
      {
        config: auth,
        schema: { tags: linkTags, summary, params: catalogueIdParamsSchema, response: { 200: linkSchema } },
      },
      async (request) => service.getLink(db, (await request.requireUser()).id, request.params.id),
    );
  }

  app.patch(
    "/links/:id",
    {
      config: auth,
      schema: {
        tags: linkTags,
        summary: "Edit one of my links",
        params: catalogueIdParamsSchema,
        body: updateLinkBodySchema,
        response: { 200: linkSchema },
      },
    },
    async (request) =>
      service.updateLink(deps, (await request.requireUser()).id, request.params.id, request.body),
  );

  app.delete(
    "/links/:id",
    {
      config: auth,
      schema: {
        tags: linkTags,
        summary: "Delete one of my links (archived when it has sales)",
        params: catalogueIdParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await service.deleteLink(deps, (await request.requireUser()).id, request.params.id);
      return { message: request.t("Link deleted.") };
    },
  );

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    app.post(
      `/links/:id/${action}`,
      {
        config: auth,
        schema: {
          tags: linkTags,
          summary: paused ? "Stop selling one of my links" : "Sell a paused link again",
          params: catalogueIdParamsSchema,
          response: { 200: linkSchema },
        },
      },
      async (request) =>
        service.setLinkPaused(deps, (await request.requireUser()).id, request.params.id, paused),
    );
  }

  // "Set product title": a product renamed in place.
  app.patch(
    "/product/:id",
    {
      config: auth,
      schema: {
        tags: linkTags,
        summary: "Set the title of one of my products",
        params: catalogueIdParamsSchema,
        body: setProductTitleBodySchema,
        response: { 200: linkSchema },
      },
    },
    async (request) =>
      service.setProductTitle(deps, (await request.requireUser()).id, request.params.id, request.body),
  );

  await app.register(promoCodeRoutes, deps);
  await app.register(publicCatalogueRoutes, deps);
};
