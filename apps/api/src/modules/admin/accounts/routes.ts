import {
  adminAccountDetailSchema,
  adminAccountListQuerySchema,
  adminAccountListSchema,
  adminAccountSummarySchema,
  adminIdentityListQuerySchema,
  adminIdentityListSchema,
  adminReasonBodySchema,
  adminRoleBodySchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type AdminDeps,
  accountDetail,
  findAccounts,
  identityChecks,
  setRole,
  setSuspended,
} from "./service.ts";

/*
 * The admin console's accounts and identity checks (the audit log's screen is the audit module's).
 */
export const adminAccountRoutes: FastifyPluginAsyncZod<AdminDeps> = async (app, deps) => {
  const { db } = deps;
  const tags = ["admin"];
  const config = { auth: "admin", maintenance: "allow" } as const;
  const params = z.object({ id: z.uuid() });

  app.get(
    "/admin/accounts",
    {
      config,
      schema: {
        tags,
        summary: "Accounts, newest first; search by e-mail or name",
        querystring: adminAccountListQuerySchema,
        response: { 200: adminAccountListSchema },
      },
    },
    async (request) => findAccounts(db, request.query),
  );

  app.get(
    "/admin/accounts/:id",
    {
      config,
      schema: {
        tags,
        summary: "An account with its onboarding, identity checks, balances, links, orders and payouts",
        params,
        response: { 200: adminAccountDetailSchema },
      },
    },
    async (request) => accountDetail(db, request.params.id),
  );

  app.post(
    "/admin/accounts/:id/suspend",
    {
      config,
      schema: {
        tags,
        summary: "Suspend an account: its links stop selling and its payouts stop",
        params,
        body: adminReasonBodySchema,
        response: { 200: adminAccountSummarySchema },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      return setSuspended(deps, actor.id, request.params.id, true, request.body.reason);
    },
  );

  app.post(
    "/admin/accounts/:id/reinstate",
    {
      config,
      schema: {
        tags,
        summary: "Reinstate a suspended account",
        params,
        body: adminReasonBodySchema,
        response: { 200: adminAccountSummarySchema },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      return setSuspended(deps, actor.id, request.params.id, false, request.body.reason);
    },
  );

  app.post(
    "/admin/accounts/:id/role",
    {
      config,
      schema: {
        tags,
        summary: "Make an account an admin, or a user again",
        params,
        body: adminRoleBodySchema,
        response: { 200: adminAccountSummarySchema },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      return setRole(db, actor.id, request.params.id, request.body);
    },
  );

  app.get(
    "/admin/identity",
    {
      config,
      schema: {
        tags,
        summary: "Identity verification sessions and their decisions, newest first",
        querystring: adminIdentityListQuerySchema,
        response: { 200: adminIdentityListSchema },
      },
    },
    async (request) => identityChecks(db, request.query),
  );
};
