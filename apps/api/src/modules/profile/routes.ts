import { profileSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/profile",
    {
      config: { auth: "user" },
      schema: { tags: ["profile"], summary: "The signed-in account", response: { 200: profileSchema } },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      reply.header("cache-control", "no-store");
      return {
        id: user.id,
        email: user.email,
        role: user.role,
        locale: user.locale,
        emailVerified: user.emailVerifiedAt !== null,
        onboardingCompleted: user.onboardingCompletedAt !== null,
        twoFactorEnabled: user.twoFactorEnabledAt !== null,
        createdAt: user.createdAt.toISOString(),
      };
    },
  );
};
