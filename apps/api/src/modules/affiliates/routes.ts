import {
  adminReferralFlagListSchema,
  campaignListSchema,
  campaignSchema,
  campaignStatsQuerySchema,
  campaignStatsSchema,
  claimResponseSchema,
  createCampaignBodySchema,
  earningListSchema,
  earningsQuerySchema,
  referralListSchema,
  updateCampaignBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { listReferralFlags } from "./self-referral/service.ts";
import {
  campaignStats,
  claimCommissions,
  createCampaign,
  listCampaigns,
  listEarnings,
  referralList,
  updateCampaign,
} from "./service.ts";

export interface CampaignDeps {
  db: Db;
  config: Config;
}

/** How many flagged referrals the admin console lists (the newest). */
export const REFERRAL_FLAGS_SHOWN = 200;

/**
 * The affiliate's side: campaigns, their figures, the referred accounts, earnings and claims; and
 * for the admin, the referrals flagged as self-referrals.
 */
export const campaignRoutes: FastifyPluginAsyncZod<CampaignDeps> = async (app, { db, config }) => {
  const tags = ["campaigns"];
  const auth = { auth: "user" } as const;

  app.get(
    "/campaigns",
    {
      config: auth,
      schema: {
        tags,
        summary: "My campaigns with clicks, sign-ups, sales and commissions (reads only)",
        response: { 200: campaignListSchema },
      },
    },
    async (request) => listCampaigns(db, config, (await request.requireUser()).id),
  );

  app.post(
    "/campaigns",
    {
      config: auth,
      schema: {
        tags,
        summary: "Create a campaign with its own token and share link",
        body: createCampaignBodySchema,
        response: { 201: campaignSchema },
      },
    },
    async (request, reply) => {
      const campaign = await createCampaign(db, config, (await request.requireUser()).id, request.body);
      return reply.code(201).send(campaign);
    },
  );

  app.get(
    "/campaigns/stats",
    {
      config: auth,
      schema: {
        tags,
        summary: "Clicks, bot clicks and sign-ups per UTC day, over all my campaigns or one",
        querystring: campaignStatsQuerySchema,
        response: { 200: campaignStatsSchema },
      },
    },
    async (request) => campaignStats(db, (await request.requireUser()).id, request.query),
  );

  app.get(
    "/campaigns/referrals",
    {
      config: auth,
      schema: {
        tags,
        summary: "The accounts I referred (anonymised, newest first), with their sales and my earnings",
        response: { 200: referralListSchema },
      },
    },
    async (request) => referralList(db, config, (await request.requireUser()).id),
  );

  app.get(
    "/campaigns/earnings",
    {
      config: auth,
      schema: {
        tags,
        summary: "One row per commission, newest first",
        querystring: earningsQuerySchema,
        response: { 200: earningListSchema },
      },
    },
    async (request) => listEarnings(db, (await request.requireUser()).id, request.query),
  );

  app.post(
    "/campaigns/claim",
    {
      config: auth,
      schema: {
        tags,
        summary: "Move every claimable commission into my available balance, once",
        response: { 200: claimResponseSchema },
      },
    },
    async (request) => claimCommissions(db, request.log, (await request.requireUser()).id),
  );

  app.get(
    "/admin/referral-flags",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Referrals flagged as self-referrals, with the signal they shared with their referrer",
        response: { 200: adminReferralFlagListSchema },
      },
    },
    async () => listReferralFlags(db, REFERRAL_FLAGS_SHOWN),
  );

  app.patch(
    "/campaigns/:id",
    {
      config: auth,
      schema: {
        tags,
        summary: "Rename, archive or unarchive one of my campaigns",
        params: z.object({ id: z.uuid() }),
        body: updateCampaignBodySchema,
        response: { 200: campaignSchema },
      },
    },
    async (request) =>
      updateCampaign(db, config, (await request.requireUser()).id, request.params.id, request.body),
  );
};
