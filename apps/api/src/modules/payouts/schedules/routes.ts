import { payoutScheduleBodySchema, payoutScheduleSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { loopbackOnly } from "../../../plugins/dev-routes.ts";
import type { PayoutDeps } from "../routes.ts";
import { getSchedule, putSchedule, runScheduleNow, scheduleNextPayoutTick } from "./service.ts";

/** `/profile/payout/schedule`: on request, weekly, monthly or at a threshold (issue 23). */
export const payoutScheduleRoutes: FastifyPluginAsyncZod<PayoutDeps> = async (app, deps) => {
  const { db, config, payouts } = deps;
  const tags = ["payouts"];
  const auth = { auth: "user" } as const;

  app.get(
    "/profile/payout/schedule",
    {
      config: auth,
      schema: {
        tags,
        summary: "My payout schedule, when it next runs, and what keeps it from paying",
        response: { 200: payoutScheduleSchema },
      },
    },
    async (request) => getSchedule(db, config, (await request.requireUser()).id),
  );

  app.put(
    "/profile/payout/schedule",
    {
      config: auth,
      schema: {
        tags,
        summary:
          "Choose on request, weekly (a weekday), monthly (a day) or a threshold (at least the minimum)",
        body: payoutScheduleBodySchema,
        response: { 200: payoutScheduleSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      const saved = await putSchedule(db, config, user.id, request.body, request.locale);
      // The chain exists from every instance's start; this repairs it should it have been lost.
      if (config.JOBS_ENABLED && saved.schedule.kind !== "manual") await scheduleNextPayoutTick(db, config);
      return saved;
    },
  );

  // Anonymous, and it starts payouts: DEV_ROUTES only, loopback clients only.
  if (config.DEV_ROUTES) {
    app.post(
      "/dev/payouts/schedules/run",
      {
        onRequest: loopbackOnly,
        schema: {
          tags: ["dev"],
          summary:
            "Development only: run one account's payout schedule now, as its job would at a given time",
          body: z.object({ userId: z.uuid(), asOf: z.iso.datetime().optional() }),
          response: { 200: z.object({ created: z.array(z.uuid()), blocked: z.array(z.string()) }) },
        },
      },
      async (request) => {
        const at = request.body.asOf ? new Date(request.body.asOf) : new Date();
        const outcome = await runScheduleNow(db, config, payouts, request.body.userId, at);
        if (outcome.queued || outcome.created.length > 0) deps.pokeJobs();
        return {
          created: outcome.created,
          blocked: outcome.blocked.map((b) => (b.currency ? `${b.code}:${b.currency}` : b.code)),
        };
      },
    );
  }
};
