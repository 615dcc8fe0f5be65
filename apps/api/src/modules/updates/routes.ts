import {
  unsubscribeParamsSchema,
  unsubscribeViewSchema,
  updateAudienceQuerySchema,
  updateAudienceSchema,
  updateComposeBodySchema,
  updateListSchema,
  updateParamsSchema,
  updateViewSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  composeUpdate,
  describeUnsubscribe,
  getUpdate,
  listUpdates,
  type UpdatesDeps,
  unsubscribe,
  updateAudience,
} from "./service.ts";

/** RFC 8058's one-click body ("List-Unsubscribe=One-Click") is small; nothing in it is read. */
const ONE_CLICK_BODY_LIMIT = 1024;

/*
 * Updates to buyers (issue 21): the creator's side (always the session user's own updates) and the
 * buyer's unsubscribe link, which needs no session: its signed token is the proof.
 */
export const updateRoutes: FastifyPluginAsyncZod<UpdatesDeps> = async (app, deps) => {
  const { db } = deps;
  const config = { auth: "user" } as const;
  const tags = ["updates"];

  // Mail clients post the one-click unsubscribe as a form (RFC 8058 §3.2); encapsulated, so only
  // this plugin's routes accept those bodies, and none of them reads one.
  for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
    app.addContentTypeParser(type, { parseAs: "string", bodyLimit: ONE_CLICK_BODY_LIMIT }, (_r, _b, done) =>
      done(null, undefined),
    );
  }

  app.get(
    "/updates",
    {
      config,
      schema: {
        tags,
        summary: "My updates to buyers, newest first, with their delivery counts",
        response: { 200: updateListSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return listUpdates(deps, (await request.requireUser()).id);
    },
  );

  app.get(
    "/updates/audience",
    {
      config,
      schema: {
        tags,
        summary: "How many buyers an update would reach (of one link of mine, or of all)",
        querystring: updateAudienceQuerySchema,
        response: { 200: updateAudienceSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return updateAudience(db, (await request.requireUser()).id, request.query.linkId);
    },
  );

  app.post(
    "/updates",
    {
      config,
      schema: {
        tags,
        summary: "Send an update to my buyers (of one link, or of all); sent in the background",
        body: updateComposeBodySchema,
        response: { 202: updateViewSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      return reply.code(202).send(await composeUpdate(deps, user, request.body));
    },
  );

  app.get(
    "/updates/:id",
    {
      config,
      schema: {
        tags,
        summary: "One of my updates, with its delivery counts",
        params: updateParamsSchema,
        response: { 200: updateViewSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return getUpdate(db, (await request.requireUser()).id, request.params.id);
    },
  );

  app.get(
    "/updates/unsubscribe/:token",
    {
      schema: {
        tags,
        summary: "Whose updates an unsubscribe link leaves, and whether it already did (changes nothing)",
        params: unsubscribeParamsSchema,
        response: { 200: unsubscribeViewSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return describeUnsubscribe(deps, request.params.token);
    },
  );

  app.post(
    "/updates/unsubscribe/:token",
    {
      schema: {
        tags,
        summary: "Leave this creator's updates (no session: the link is the proof; idempotent)",
        params: unsubscribeParamsSchema,
        response: { 200: unsubscribeViewSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return unsubscribe(deps, request.params.token);
    },
  );
};
