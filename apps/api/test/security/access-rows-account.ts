import { randomUUID } from "node:crypto";
import { twoFactorSetupResponseSchema } from "@salelink/contracts";
import type { UserTokenPurpose } from "../../src/db/schema/index.ts";
import { issueUserToken } from "../../src/modules/auth/tokens.ts";
import { nextTotpCode, PASSWORD, uniqueEmail } from "../support/accounts.ts";
import { HUMAN, identitySession, newParty, send } from "./access-fixtures.ts";
import { freshPayout, freshReport, freshSale, twoFactorOn } from "./access-fresh.ts";
import { adminOnly, type Cell, open, owner, type Row, signedIn } from "./access-rows.ts";

/** Accounts, profile, identity and the admin's routes. */

const reason = { reason: "Checked by the access matrix" };

/**
 * A token as the e-mail would carry it, for a fresh account: the e-mail flows have their own
 * tests, and going through them here would cost a password hash and a mail job per cell.
 */
async function emailedToken(cell: Cell, purpose: UserTokenPurpose, verified = true): Promise<string> {
  const account = await newParty(cell.world.ctx, { verified });
  return issueUserToken(cell.world.ctx.database.db, account.id, purpose);
}

export const accountRows: Record<string, Row> = {
  "POST /auth/signup": {
    expect: open(201),
    request: () => ({
      url: "/auth/signup",
      payload: {
        email: uniqueEmail("signup"),
        password: PASSWORD,
        acceptTerms: true,
        locale: "en",
        turnstileToken: HUMAN,
      },
    }),
  },
  "POST /auth/signin": {
    expect: open(200),
    request: async ({ world }) => {
      const account = await newParty(world.ctx);
      return { url: "/auth/signin", payload: { email: account.email, password: account.password } };
    },
  },
  "POST /auth/logout": { expect: open(200), fresh: true, request: () => ({ url: "/auth/logout" }) },
  "POST /auth/verify/email/:token": {
    expect: open(200),
    request: async (cell) => ({
      url: `/auth/verify/email/${await emailedToken(cell, "verify-email", false)}`,
      // A token issued here belongs to no sign-up, so the link asks for a password (issue 16).
      payload: { password: PASSWORD },
    }),
  },
  "POST /auth/email/resend": {
    expect: open(200),
    request: () => ({ url: "/auth/email/resend", payload: { email: uniqueEmail("resend") } }),
  },
  "POST /auth/password/send": {
    expect: open(200),
    request: () => ({ url: "/auth/password/send", payload: { email: uniqueEmail("reset") } }),
  },
  "POST /auth/password/store": {
    expect: open(200),
    request: async (cell) => ({
      url: "/auth/password/store",
      payload: {
        token: await emailedToken(cell, "reset-password"),
        password: "a-brand-new-password",
        turnstileToken: HUMAN,
      },
    }),
  },
  "PATCH /auth/password": {
    expect: signedIn(200),
    fresh: true,
    request: () => ({
      url: "/auth/password",
      payload: { oldPassword: PASSWORD, newPassword: "a-brand-new-password", turnstileToken: HUMAN },
    }),
  },
  "POST /auth/2fa/setup": {
    expect: signedIn(200),
    fresh: true,
    // The current password: the matrix may outlast the re-authentication window of a sign-in.
    request: () => ({ url: "/auth/2fa/setup", payload: { password: PASSWORD } }),
  },
  "POST /auth/2fa/enable": {
    expect: signedIn(200),
    fresh: true,
    request: async (cell) => {
      if (!cell.who) return { url: "/auth/2fa/enable", payload: { code: "123456" } };
      const res = await send(cell.world.ctx, "POST", "/auth/2fa/setup", {
        cookie: cell.who.cookie,
        payload: { password: PASSWORD },
      });
      const { secret } = twoFactorSetupResponseSchema.parse(res.json());
      return { url: "/auth/2fa/enable", payload: { code: nextTotpCode(secret) } };
    },
  },
  "POST /auth/2fa/disable": {
    expect: signedIn(200),
    fresh: true,
    request: async (cell) => {
      if (!cell.who) return { url: "/auth/2fa/disable", payload: { password: PASSWORD, code: "123456" } };
      // A recovery code: the authenticator's code of the step just used to enable is spent.
      const code = await twoFactorOn(cell.world, cell.who);
      return { url: "/auth/2fa/disable", payload: { password: PASSWORD, code } };
    },
  },

  // Null for a visitor, not a 401 (decision 021).
  "GET /profile": { expect: open(200), request: () => ({ url: "/profile" }) },
  "PATCH /profile/locale": {
    expect: signedIn(200),
    request: () => ({ url: "/profile/locale", payload: { locale: "en" } }),
  },
  "GET /profile/onboarding": { expect: signedIn(200), request: () => ({ url: "/profile/onboarding" }) },
  "POST /profile/onboarding": {
    expect: signedIn(200),
    fresh: true,
    request: () => ({
      url: "/profile/onboarding",
      payload: {
        kind: "individual",
        firstName: "Ada",
        lastName: "Lovelace",
        dateOfBirth: "1990-12-10",
        address: { line1: "1 Main Street", city: "Paris", postalCode: "75001", country: "FR" },
      },
    }),
  },
  "POST /profile/delete": {
    expect: signedIn(200),
    fresh: true,
    request: () => ({ url: "/profile/delete", payload: { password: PASSWORD } }),
  },
  "DELETE /profile/delete/:token": {
    expect: open(200),
    request: async (cell) => ({ url: `/profile/delete/${await emailedToken(cell, "delete-account")}` }),
  },

  "GET /identity": { expect: signedIn(200), request: () => ({ url: "/identity" }) },
  "POST /identity/sessions": {
    expect: signedIn(201),
    fresh: true,
    request: () => ({ url: "/identity/sessions", payload: { givenName: "Ada", lastName: "Lovelace" } }),
  },
  "GET /identity/sandbox/sessions/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/identity/sandbox/sessions/${world.creator.identitySessionId}` }),
  },
  "POST /identity/sandbox/sessions/:id/decision": {
    expect: owner(202),
    // A decision is taken once: an account of its own with a check still open.
    prepare: async (world) => {
      const party = await newParty(world.ctx);
      return { id: await identitySession(world.ctx, party.cookie), ownerCookie: party.cookie };
    },
    request: ({ prepared }) => ({
      url: `/identity/sandbox/sessions/${prepared.id}/decision`,
      payload: { outcome: "approved" },
    }),
  },
  "POST /webhooks/identity/:provider": {
    // Not signed: refused whoever sends it.
    expect: open(401),
    request: () => ({ url: "/webhooks/identity/sandbox", payload: { id: randomUUID() } }),
  },

  "GET /admin/referral-flags": { expect: adminOnly(200), request: () => ({ url: "/admin/referral-flags" }) },
  "GET /admin/accounts": { expect: adminOnly(200), request: () => ({ url: "/admin/accounts" }) },
  "GET /admin/accounts/:id": {
    expect: adminOnly(200),
    request: ({ world }) => ({ url: `/admin/accounts/${world.creator.id}` }),
  },
  "POST /admin/accounts/:id/suspend": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: (await newParty(world.ctx)).id }),
    request: ({ prepared }) => ({ url: `/admin/accounts/${prepared.id}/suspend`, payload: reason }),
  },
  "POST /admin/accounts/:id/reinstate": {
    expect: adminOnly(200),
    prepare: async (world) => {
      const { id } = await newParty(world.ctx);
      await send(world.ctx, "POST", `/admin/accounts/${id}/suspend`, {
        cookie: world.admin.cookie,
        payload: reason,
      });
      return { id };
    },
    request: ({ prepared }) => ({ url: `/admin/accounts/${prepared.id}/reinstate`, payload: reason }),
  },
  "POST /admin/accounts/:id/role": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: (await newParty(world.ctx)).id }),
    request: ({ prepared }) => ({
      url: `/admin/accounts/${prepared.id}/role`,
      payload: { role: "admin", ...reason },
    }),
  },
  "GET /admin/audit": { expect: adminOnly(200), request: () => ({ url: "/admin/audit" }) },
  "GET /admin/identity": { expect: adminOnly(200), request: () => ({ url: "/admin/identity" }) },
  "GET /admin/overview": { expect: adminOnly(200), request: () => ({ url: "/admin/overview?days=7" }) },
  "PUT /admin/maintenance": {
    expect: adminOnly(200),
    request: () => ({ url: "/admin/maintenance", payload: { maintenance: false, ...reason } }),
  },
  "GET /admin/payouts": { expect: adminOnly(200), request: () => ({ url: "/admin/payouts" }) },
  "GET /admin/payouts/export": { expect: adminOnly(200), request: () => ({ url: "/admin/payouts/export" }) },
  "GET /admin/payouts/mismatches": {
    expect: adminOnly(200),
    request: () => ({ url: "/admin/payouts/mismatches" }),
  },
  "POST /admin/payouts/:id/approve": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: await freshPayout(world, "requested") }),
    request: ({ prepared }) => ({ url: `/admin/payouts/${prepared.id}/approve`, payload: reason }),
  },
  "POST /admin/payouts/:id/paid": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: await freshPayout(world, "processing") }),
    request: ({ prepared }) => ({ url: `/admin/payouts/${prepared.id}/paid`, payload: reason }),
  },
  "POST /admin/payouts/:id/fail": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: await freshPayout(world, "processing") }),
    request: ({ prepared }) => ({ url: `/admin/payouts/${prepared.id}/fail`, payload: reason }),
  },
  "GET /admin/orders": { expect: adminOnly(200), request: () => ({ url: "/admin/orders" }) },
  "POST /admin/orders/:id/refund": {
    expect: adminOnly(202),
    prepare: async (world) => ({ id: (await freshSale(world)).orderId }),
    request: ({ prepared }) => ({ url: `/admin/orders/${prepared.id}/refund`, payload: reason }),
  },
  "GET /admin/reports": { expect: adminOnly(200), request: () => ({ url: "/admin/reports" }) },
  "POST /admin/reports/:id/dismiss": {
    expect: adminOnly(200),
    request: ({ world }) => ({ url: `/admin/reports/${world.reportId}/dismiss`, payload: reason }),
  },
  "POST /admin/reports/:id/takedown": {
    expect: adminOnly(200),
    prepare: async (world) => ({ id: await freshReport(world) }),
    request: ({ prepared }) => ({ url: `/admin/reports/${prepared.id}/takedown`, payload: reason }),
  },
};
