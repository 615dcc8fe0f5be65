import { maintenanceStatusSchema, setMaintenanceBodySchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
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
      return service.switchByAdmin(request.body, user.id);
    },
  );
};
