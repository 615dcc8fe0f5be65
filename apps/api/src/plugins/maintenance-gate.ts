import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/errors.ts";
import type { MaintenanceService } from "../modules/maintenance/service.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Routes that keep accepting writes from everyone while maintenance is on (webhooks, sign-in). */
    maintenance?: "allow";
  }
}

const writeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** While maintenance is on, only admins change anything; reads keep working. */
export const maintenanceGate = fp(
  async (app: FastifyInstance, { service }: { service: MaintenanceService }) => {
    app.addHook("preHandler", async (request) => {
      if (!writeMethods.has(request.method)) return;
      if (request.routeOptions.config.maintenance === "allow") return;
      if (!(await service.status()).maintenance) return;
      const user = await request.currentUser();
      if (user?.role === "admin") return;
      throw new AppError(
        "MaintenanceException",
        "The platform is under maintenance. Please try again later.",
      );
    });
  },
  { name: "maintenance-gate", dependencies: ["auth"] },
);
