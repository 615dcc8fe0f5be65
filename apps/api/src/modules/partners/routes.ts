import {
  invitationPreviewSchema,
  membershipParamsSchema,
  membershipResultSchema,
  membershipStatsQuerySchema,
  membershipStatsSchema,
  messageResponseSchema,
  partnerClaimResponseSchema,
  partnerInvitationBodySchema,
  partnerInvitationListSchema,
  partnerInvitationParamsSchema,
  partnerInvitationSchema,
  partnerListQuerySchema,
  partnerListSchema,
  partnerMembershipParamsSchema,
  partnerProgrammeBodySchema,
  partnerProgrammeSchema,
  programmeInvitationParamsSchema,
  programmeParamsSchema,
  programmesSchema,
  publicProgrammeParamsSchema,
  publicProgrammeSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { PUBLIC_READ_CACHE_CONTROL } from "../../lib/cache-control.ts";
import { claimCommissions } from "../affiliates/service.ts";
import {
  acceptInvitation,
  cancelInvitation,
  decide,
  getProgramme,
  invite,
  join,
  type PartnerDeps,
  pendingInvitations,
  previewInvitation,
  programmes,
  publicProgramme,
  saveProgramme,
} from "./service.ts";
import { listPartners, membershipStats } from "./stats/service.ts";

/*
 * Creator partner programmes (issue 20): the creator's programme (always the session user's own),
 * the partner's side (any signed-in account), and the public read of a programme.
 */
export const partnerRoutes: FastifyPluginAsyncZod<PartnerDeps> = async (app, deps) => {
  const { db } = deps;
  const config = { auth: "user" } as const;
  const creatorTags = ["partner-programme"];
  // Any change here (a programme, a rate, a membership) shows on this instance's next checkout;
  // other instances see it within PARTNER_ATTRIBUTION_CACHE_MS (decision 035).
  app.addHook("onResponse", async (request, reply) => {
    if (request.method !== "GET" && reply.statusCode < 400) deps.attributions?.forget();
  });
  const partnerTags = ["programmes"];

  app.get(
    "/partner-programme",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "My partner programme's settings (the defaults when never saved)",
        response: { 200: partnerProgrammeSchema },
      },
    },
    async (request) => getProgramme(db, (await request.requireUser()).id),
  );

  app.put(
    "/partner-programme",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "Save my partner programme's settings; rates apply to sales from now on",
        body: partnerProgrammeBodySchema,
        response: { 200: partnerProgrammeSchema },
      },
    },
    async (request) => saveProgramme(deps, (await request.requireUser()).id, request.body),
  );

  app.get(
    "/partner-programme/partners",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "My programme's partners and applications with their figures, sorted and paged",
        querystring: partnerListQuerySchema,
        response: { 200: partnerListSchema },
      },
    },
    async (request) => listPartners(db, (await request.requireUser()).id, request.query),
  );

  const decisions = [
    { path: "approve", decision: "approve", summary: "Approve an application" },
    { path: "refuse", decision: "refuse", summary: "Refuse an application" },
  ] as const;
  for (const { path, decision, summary } of decisions) {
    app.post(
      `/partner-programme/partners/:membershipId/${path}`,
      {
        config,
        schema: {
          tags: creatorTags,
          summary,
          params: partnerMembershipParamsSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await decide(db, (await request.requireUser()).id, request.params.membershipId, decision);
        return {
          message:
            decision === "approve" ? request.t("Partner approved.") : request.t("Application refused."),
        };
      },
    );
  }

  app.delete(
    "/partner-programme/partners/:membershipId",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "Remove a partner (their row and earlier commissions stay)",
        params: partnerMembershipParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await decide(db, (await request.requireUser()).id, request.params.membershipId, "remove");
      return { message: request.t("Partner removed.") };
    },
  );

  app.post(
    "/partner-programme/invitations",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "Invite someone by e-mail into my programme (a link valid a few days)",
        body: partnerInvitationBodySchema,
        response: { 201: partnerInvitationSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const invitation = await invite(deps, user, request.body.email, request.locale);
      return reply.code(201).send(invitation);
    },
  );

  app.get(
    "/partner-programme/invitations",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "My pending invitations, newest first",
        response: { 200: partnerInvitationListSchema },
      },
    },
    async (request) => pendingInvitations(db, (await request.requireUser()).id),
  );

  app.delete(
    "/partner-programme/invitations/:invitationId",
    {
      config,
      schema: {
        tags: creatorTags,
        summary: "Cancel a pending invitation: its link stops working",
        params: partnerInvitationParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await cancelInvitation(db, (await request.requireUser()).id, request.params.invitationId);
      return { message: request.t("Invitation cancelled.") };
    },
  );

  app.get(
    "/programmes",
    {
      config,
      schema: {
        tags: partnerTags,
        summary: "The programmes I belong to or applied to, and those open to join",
        response: { 200: programmesSchema },
      },
    },
    async (request) => programmes(db, (await request.requireUser()).id),
  );

  app.get(
    "/programmes/memberships/:membershipId",
    {
      config,
      schema: {
        tags: partnerTags,
        summary: "One of my programmes: my figures, a chart over time, and the links to share",
        params: membershipParamsSchema,
        querystring: membershipStatsQuerySchema,
        response: { 200: membershipStatsSchema },
      },
    },
    async (request) =>
      membershipStats(db, (await request.requireUser()).id, request.params.membershipId, request.query.days),
  );

  app.post(
    "/programmes/claim",
    {
      config,
      schema: {
        tags: partnerTags,
        summary: "Move every partner commission past its hold into my available balance, once",
        response: { 200: partnerClaimResponseSchema },
      },
    },
    async (request) => claimCommissions(db, request.log, (await request.requireUser()).id, "partner"),
  );

  app.post(
    "/programmes/:creatorId/join",
    {
      config,
      schema: {
        tags: partnerTags,
        summary: "Join a creator's programme (active when open, an application when by approval)",
        params: programmeParamsSchema,
        response: { 201: membershipResultSchema },
      },
    },
    async (request, reply) => {
      const result = await join(db, (await request.requireUser()).id, request.params.creatorId);
      return reply.code(201).send(result);
    },
  );

  app.get(
    "/programmes/invitations/:token",
    {
      schema: {
        tags: partnerTags,
        summary: "What an e-mailed invitation offers, before accepting it (the link is the capability)",
        params: programmeInvitationParamsSchema,
        response: { 200: invitationPreviewSchema },
      },
    },
    async (request, reply) => {
      // Personal to whoever holds the link: never kept by a shared cache.
      reply.header("cache-control", "no-store");
      return previewInvitation(db, request.params.token);
    },
  );

  app.post(
    "/programmes/invitations/:token/accept",
    {
      config,
      schema: {
        tags: partnerTags,
        summary: "Accept an e-mailed invitation: an active membership",
        params: programmeInvitationParamsSchema,
        response: { 200: membershipResultSchema },
      },
    },
    async (request) => acceptInvitation(db, (await request.requireUser()).id, request.params.token),
  );

  app.get(
    "/public/programmes/:profileIdOrHandle",
    {
      schema: {
        tags: ["public"],
        summary: "A creator profile's partner programme, when it is on",
        params: publicProgrammeParamsSchema,
        response: { 200: publicProgrammeSchema },
      },
    },
    async (request, reply) => {
      // Set first, so a 404 is cached as briefly as a hit, as the creator page does.
      reply.header("cache-control", PUBLIC_READ_CACHE_CONTROL);
      return publicProgramme(db, request.params.profileIdOrHandle);
    },
  );
};
