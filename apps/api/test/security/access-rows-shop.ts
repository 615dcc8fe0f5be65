import { randomUUID } from "node:crypto";
import { payouts } from "../../src/db/schema/index.ts";
import { multipart } from "../support/uploads.ts";
import { PNG, send } from "./access-fixtures.ts";
import {
  freshBank,
  freshCheckout,
  freshLink,
  freshProfile,
  freshPromo,
  sandboxCard,
  sandboxCards,
} from "./access-fresh.ts";
import { type Expect, open, owner, type Row, signedIn } from "./access-rows.ts";

/** Catalogue, checkout, money, campaigns, and the public and development routes. */

export const shopRows: Record<string, Row> = {
  "GET /health": { expect: open(200), request: () => ({ url: "/health" }) },
  "GET /maintenance": { expect: open(200), request: () => ({ url: "/maintenance" }) },
  "GET /health/ready": { expect: open(200), request: () => ({ url: "/health/ready" }) },
  "GET /docs": { expect: open(200), request: () => ({ url: "/docs" }) },
  "GET /docs/": { expect: open(200), request: () => ({ url: "/docs/" }) },
  "GET /docs/json": { expect: open(200), request: () => ({ url: "/docs/json" }) },
  "GET /docs/yaml": { expect: open(200), request: () => ({ url: "/docs/yaml" }) },
  // The UI's page is served at /docs/ only.
  "GET /docs/static/index.html": { expect: open(302), request: () => ({ url: "/docs/static/index.html" }) },
  "GET /docs/static/swagger-initializer.js": {
    expect: open(200),
    request: () => ({ url: "/docs/static/swagger-initializer.js" }),
  },
  "GET /docs/static/*": { expect: open(200), request: () => ({ url: "/docs/static/swagger-ui.css" }) },
  // Outside production only (the test app is "test"): the dev mail page and the hold release.
  "GET /dev/mail": { expect: open(200), request: () => ({ url: "/dev/mail" }) },
  "GET /dev/mail/:id": { expect: open(200), request: ({ world }) => ({ url: `/dev/mail/${world.mailId}` }) },
  "POST /dev/holds/release": {
    expect: open(200),
    request: () => ({
      url: "/dev/holds/release",
      payload: { asOf: new Date().toISOString(), orderIds: [randomUUID()] },
    }),
  },
  // An account without a schedule: the run finds nothing due.
  "POST /dev/payouts/schedules/run": {
    expect: open(200),
    request: () => ({ url: "/dev/payouts/schedules/run", payload: { userId: randomUUID() } }),
  },

  "GET /profiles": { expect: signedIn(200), request: () => ({ url: "/profiles" }) },
  "POST /profiles": {
    expect: signedIn(201),
    request: () => ({
      url: "/profiles",
      payload: { displayName: "Grace", handle: `g_${randomUUID().slice(0, 8)}` },
    }),
  },
  "PATCH /profiles/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/profiles/${world.creator.profile.id}`, payload: { bio: "Photos." } }),
  },
  "DELETE /profiles/:id": {
    expect: owner(200),
    prepare: async (world) => ({ id: (await freshProfile(world)).id }),
    request: ({ prepared }) => ({ url: `/profiles/${prepared.id}` }),
  },
  "GET /profiles/:id/portfolio": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/profiles/${world.creator.profile.id}/portfolio` }),
  },
  "PUT /profiles/:id/portfolio": {
    expect: owner(200),
    request: ({ world }) => ({
      url: `/profiles/${world.creator.profile.id}/portfolio`,
      payload: { linkIds: [world.creator.link.id] },
    }),
  },

  "GET /links": { expect: signedIn(200), request: () => ({ url: "/links" }) },
  "POST /links": {
    // The profile and the files named in the body are the creator's.
    expect: owner(201),
    request: ({ world }) => ({
      url: "/links",
      payload: {
        profileId: world.creator.profile.id,
        title: "Another pack",
        priceMinor: 900,
        currency: "EUR",
        fileId: world.creator.content.id,
      },
    }),
  },
  "GET /links/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/links/${world.creator.link.id}` }),
  },
  "PATCH /links/:id": {
    expect: owner(200),
    request: ({ world }) => ({
      url: `/links/${world.creator.link.id}`,
      payload: { title: "Sunset pack II" },
    }),
  },
  "DELETE /links/:id": {
    expect: owner(200),
    prepare: async (world) => ({ id: (await freshLink(world)).id }),
    request: ({ prepared }) => ({ url: `/links/${prepared.id}` }),
  },
  "POST /links/:id/pause": {
    expect: owner(200),
    prepare: async (world) => ({ id: (await freshLink(world)).id }),
    request: ({ prepared }) => ({ url: `/links/${prepared.id}/pause` }),
  },
  "POST /links/:id/resume": {
    expect: owner(200),
    prepare: async (world) => {
      const { id } = await freshLink(world);
      await send(world.ctx, "POST", `/links/${id}/pause`, { cookie: world.creator.cookie });
      return { id };
    },
    request: ({ prepared }) => ({ url: `/links/${prepared.id}/resume` }),
  },
  "GET /product/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/product/${world.creator.link.id}` }),
  },
  "PATCH /product/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/product/${world.creator.link.id}`, payload: { title: "Sunset pack" } }),
  },

  "GET /promo-codes": { expect: signedIn(200), request: () => ({ url: "/promo-codes" }) },
  "POST /promo-codes": {
    // Restricted to the creator's link: nobody else may attach a code to it.
    expect: owner(201),
    request: ({ world }) => ({
      url: "/promo-codes",
      payload: {
        kind: "percent",
        value: 15,
        code: `P${randomUUID().slice(0, 8)}`,
        linkIds: [world.creator.link.id],
      },
    }),
  },
  "PATCH /promo-codes/:id": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/promo-codes/${world.creator.promo.id}`, payload: { usageLimit: 500 } }),
  },
  "DELETE /promo-codes/:id": {
    expect: owner(200),
    prepare: async (world) => ({ id: (await freshPromo(world)).id }),
    request: ({ prepared }) => ({ url: `/promo-codes/${prepared.id}` }),
  },

  "GET /public/links/:token": {
    expect: open(200),
    request: ({ world }) => ({ url: `/public/links/${world.creator.link.token}` }),
  },
  "POST /public/links/:token/quote": {
    expect: open(200),
    request: ({ world }) => ({
      url: `/public/links/${world.creator.link.token}/quote`,
      payload: { promoCode: world.creator.promo.code },
    }),
  },
  "GET /creators/:idOrHandle": {
    expect: open(200),
    request: ({ world }) => ({ url: `/creators/${world.creator.profile.handle}` }),
  },
  "GET /media/:folder/:name": { expect: open(200), request: ({ world }) => ({ url: world.previewUrl }) },
  "GET /files/*": { expect: open(200), request: ({ world }) => ({ url: world.fileUrl }) },
  "GET /profile/storage": { expect: signedIn(200), request: () => ({ url: "/profile/storage" }) },
  "POST /upload": {
    expect: signedIn(201),
    request: () => {
      const { body, contentType } = multipart([
        { filename: "photo.png", contentType: "image/png", data: PNG },
      ]);
      return { url: "/upload?use=cover", payload: body, headers: { "content-type": contentType } };
    },
  },

  "POST /stripe/checkout": {
    expect: open(201),
    request: ({ world }) => ({
      url: "/stripe/checkout",
      payload: { token: world.creator.link.token, email: "someone@example.test", locale: "en" },
    }),
  },
  "GET /checkout/:orderId": {
    expect: open(200),
    request: ({ world }) => ({
      url: `/checkout/${world.creator.sale.orderId}?secret=${world.creator.sale.checkoutSecret}`,
    }),
  },
  "POST /checkout/:orderId/cancel": {
    // The checkout's secret is the authorisation; a paid order stays paid (the answer says so).
    expect: open(200),
    request: ({ world }) => ({
      url: `/checkout/${world.creator.sale.orderId}/cancel?secret=${world.creator.sale.checkoutSecret}`,
    }),
  },
  "POST /checkout/:orderId/confirm": {
    // Stripe's server-side confirmation (decision 040): this matrix runs on the sandbox, whose own
    // card form confirms, so the route refuses everyone alike before reading the secret.
    expect: open(409),
    request: ({ world }) => ({
      url: `/checkout/${world.creator.sale.orderId}/confirm`,
      payload: { secret: world.creator.sale.checkoutSecret, confirmationToken: "ctoken_matrix" },
    }),
  },
  "POST /sandbox/payments/:paymentId/confirm": {
    // The first caller pays; the others are told it is paid.
    expect: open(200),
    prepare: async (world) => ({ id: (await freshCheckout(world)).paymentId }),
    request: ({ prepared }) => ({
      url: `/sandbox/payments/${prepared.id}/confirm`,
      payload: sandboxCard(sandboxCards.success),
    }),
  },
  "POST /sandbox/payments/:paymentId/authenticate": {
    expect: open(200),
    prepare: async (world) => {
      const { paymentId } = await freshCheckout(world);
      await send(world.ctx, "POST", `/sandbox/payments/${paymentId}/confirm`, {
        payload: sandboxCard(sandboxCards.authenticate),
      });
      return { id: paymentId };
    },
    request: ({ prepared }) => ({
      url: `/sandbox/payments/${prepared.id}/authenticate`,
      payload: { approve: true },
    }),
  },
  "GET /orders/:token": {
    // The receipt's link is the buyer's key: whoever holds it sees the order, signed in or not.
    expect: open(200),
    request: ({ world }) => ({ url: `/orders/${world.creator.sale.orderToken}` }),
  },
  "POST /report": {
    expect: open(201),
    request: ({ world, as }) => ({
      url: "/report",
      payload: { token: world.creator.link.token, reason: "other", message: "Checked by the access matrix." },
      // Each caller is its own reporter: one reporter may have only a few open reports on a link.
      headers: { "user-agent": `access-matrix-${as}` },
    }),
  },
  "POST /webhooks/:provider": {
    expect: open(400),
    request: () => ({ url: "/webhooks/sandbox", payload: { type: "payment.succeeded" } }),
  },
  "POST /webhooks/payouts/stripe": {
    // Payouts are manual here: the route answers as if it did not exist.
    expect: open(404),
    request: () => ({ url: "/webhooks/payouts/stripe", payload: { type: "payout.paid" } }),
  },

  "GET /wallet": { expect: signedIn(200), request: () => ({ url: "/wallet" }) },
  "GET /transactions": { expect: signedIn(200), request: () => ({ url: "/transactions" }) },
  "GET /transactions.csv": { expect: signedIn(200), request: () => ({ url: "/transactions.csv" }) },
  "GET /sales/summary": { expect: signedIn(200), request: () => ({ url: "/sales/summary" }) },
  "GET /profile/bank-accounts": { expect: signedIn(200), request: () => ({ url: "/profile/bank-accounts" }) },
  "POST /profile/bank-accounts": {
    expect: signedIn(201),
    request: () => ({
      url: "/profile/bank-accounts",
      payload: { holderName: "Ada Lovelace", iban: "DE89370400440532013000" },
    }),
  },
  "DELETE /profile/bank-accounts/:id": {
    expect: owner(200),
    prepare: async (world) => ({ id: (await freshBank(world)).id }),
    request: ({ prepared }) => ({ url: `/profile/bank-accounts/${prepared.id}` }),
  },
  "GET /profile/payout": { expect: signedIn(200), request: () => ({ url: "/profile/payout" }) },
  "POST /profile/payout": {
    // To the creator's bank account. The other creator is as eligible as the creator, so only
    // ownership can refuse it; the buyer and the admin have no verified identity.
    expect: { anonymous: 401, buyer: 403, creator: 201, other: 404, admin: 403 } satisfies Expect,
    request: ({ world }) => ({ url: "/profile/payout", payload: { bankAccountId: world.creator.bank.id } }),
  },
  "GET /profile/transfers": { expect: signedIn(200), request: () => ({ url: "/profile/transfers" }) },
  "GET /profile/payouts/:id": {
    expect: owner(200),
    // A past payout of the creator's, inserted as it stands once paid (issue 23).
    prepare: async (world) => {
      const [row] = await world.ctx.database.db
        .insert(payouts)
        .values({
          userId: world.creator.id,
          bankAccountId: world.creator.bank.id,
          holderName: world.creator.bank.holderName,
          ibanCountry: "DE",
          ibanLast4: "3000",
          amountMinor: 1000,
          currency: "EUR",
          provider: "manual",
          status: "paid",
          paidAt: new Date(),
        })
        .returning({ id: payouts.id });
      return { id: row?.id ?? "" };
    },
    request: ({ prepared }) => ({ url: `/profile/payouts/${prepared.id}` }),
  },
  "GET /profile/payout/schedule": {
    expect: signedIn(200),
    request: () => ({ url: "/profile/payout/schedule" }),
  },
  "PUT /profile/payout/schedule": {
    expect: signedIn(200),
    request: () => ({ url: "/profile/payout/schedule", payload: { kind: "weekly", weekday: 1 } }),
  },

  "PATCH /campaigns/clicks/:token": {
    expect: open(204),
    request: ({ world }) => ({
      url: `/campaigns/clicks/${world.creator.campaign.token}`,
      payload: { token: world.creator.campaign.token },
    }),
  },
  "GET /campaigns": { expect: signedIn(200), request: () => ({ url: "/campaigns" }) },
  "POST /campaigns": {
    expect: signedIn(201),
    request: () => ({ url: "/campaigns", payload: { name: "Autumn" } }),
  },
  "GET /campaigns/stats": {
    expect: owner(200),
    request: ({ world }) => ({ url: `/campaigns/stats?campaignId=${world.creator.campaign.id}` }),
  },
  "GET /campaigns/referrals": { expect: signedIn(200), request: () => ({ url: "/campaigns/referrals" }) },
  "GET /campaigns/earnings": { expect: signedIn(200), request: () => ({ url: "/campaigns/earnings" }) },
  // Nobody here was referred by anyone: there is nothing to claim, for anyone.
  "POST /campaigns/claim": { expect: signedIn(409), request: () => ({ url: "/campaigns/claim" }) },
  "PATCH /campaigns/:id": {
    expect: owner(200),
    request: ({ world }) => ({
      url: `/campaigns/${world.creator.campaign.id}`,
      payload: { name: "Spring sale" },
    }),
  },
};
