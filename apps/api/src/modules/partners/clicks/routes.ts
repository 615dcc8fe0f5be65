import { partnerClickParamsSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { addPartnerClickCounters } from "../../affiliates/clicks/queries.ts";
import { type ClickDeps, clickCounter } from "../../affiliates/clicks/routes.ts";
import { activeMembershipIdByCode } from "../attribution/queries.ts";

/**
 * `PATCH /programmes/clicks/{code}`: a visit through a partner's `?via=` link, counted by the same
 * honest counter as campaigns' clicks (one per visitor per hour, bots and filtered traffic apart,
 * memory or Redis), in its own keys and table. Anyone may call it; every well-formed call gets the
 * same empty 204, counted or not (unknown or removed code, a repeat, a bot), so the answer tells
 * nothing about codes.
 */
export const partnerClickRoutes: FastifyPluginAsyncZod<ClickDeps> = async (app, deps) => {
  const counter = clickCounter(app, deps, {
    keys: "partners",
    add: addPartnerClickCounters,
    lookup: activeMembershipIdByCode,
    route: "PATCH /programmes/clicks/:code",
  });
  app.patch(
    "/programmes/clicks/:code",
    {
      ...counter.routeOptions,
      schema: {
        tags: ["programmes"],
        summary: "Report a visit through a partner's link (204 whether counted or not)",
        params: partnerClickParamsSchema,
        response: { 204: z.undefined().describe("No content, whether the visit was counted or not") },
      },
    },
    (request, reply) => counter.count(request.params.code, request, reply),
  );
};
