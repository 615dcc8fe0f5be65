import { maintenanceStatusSchema, setMaintenanceBodySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { audit } from "../audit/queries.ts";
import type { MaintenanceService } from "./service.ts";

export const maintenanceRoutes: FastifyPluginAsyncZod<{ service: MaintenanceService }> = async (
  app,
  { service },
) => {
  app.get(
    "/maintenance",
    {
      config: { maintenance: "allow" },
      schema: {
        tags: ["maintenance"],
        summary: "Whether the platform is in maintenance mode",
        response: { 200: maintenanceStatusSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return service.status();
    },
  );

  app.put(
    "/admin/maintenance",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Switch maintenance mode on or off",
        body: setMaintenanceBodySchema,
        response: { 200: maintenanceStatusSchema },
      },
    },
    async (request) => {
      const user = await request.requireUser();
      const fallback = {
        "maintenance.on": "Maintenance switched on",
        "maintenance.off": "Maintenance switched off",
        "maintenance.message": "Maintenance message changed",
      } as const;
      const status = await service.set(request.body, user.id, async (tx, { wasOn, status }) => {
        const action =
          status.maintenance === wasOn
            ? "maintenance.message"
            : status.maintenance
              ? "maintenance.on"
              : "maintenance.off";
        await audit(tx, {
          actorId: user.id,
          action,
          targetType: "maintenance",
          targetId: "platform",
          reason: request.body.reason ?? fallback[action],
          details: { maintenance: status.maintenance },
        });
      });
      return status;
    },
  );
};
