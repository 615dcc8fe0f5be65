import {
  checkoutBodySchema,
  checkoutCancelQuerySchema,
  checkoutCancelResponseSchema,
  checkoutConfirmBodySchema,
  checkoutConfirmResultSchema,
  checkoutResponseSchema,
  checkoutStatusQuerySchema,
  checkoutStatusSchema,
  paymentProviderSchema,
} from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { signedWebhookRoute } from "../../lib/signed-webhook.ts";
import { WebhookSignatureError } from "../../providers/payments/index.ts";
import { checkoutCaller } from "./caller.ts";
import { confirmCheckout } from "./confirm.ts";
import { cancelCheckout, checkoutStatus, createCheckout, receivePaymentWebhook } from "./service.ts";
import type { CheckoutDeps } from "./types.ts";

/**
 * `/stripe/checkout`, the outcome for the paying browser, the providers' webhook. The sandbox's card
 * form is the sandbox provider's own (providers/payments/sandbox/routes.ts).
 */
export const checkoutRoutes: FastifyPluginAsyncZod<CheckoutDeps> = async (app, deps) => {
  const { config, payments } = deps;
  const tags = ["checkout"];

  const callerOf = checkoutCaller(app, config);

  app.post(
    "/stripe/checkout",
    {
      schema: {
        tags,
        summary: "Start paying for a link (the price is computed here, promo code included)",
        body: checkoutBodySchema,
        response: { 201: checkoutResponseSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createCheckout(deps, request.body, callerOf(request, request.body.email))),
  );

  app.post(
    "/checkout/:orderId/cancel",
    {
      schema: {
        tags,
        summary: "The buyer leaves the checkout: its reservation is given back at once (checkout secret)",
        params: z.object({ orderId: z.uuid() }),
        // In the query, not a body: the page sends it with navigator.sendBeacon as it closes.
        querystring: checkoutCancelQuerySchema,
        response: { 200: checkoutCancelResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return cancelCheckout(deps, request.params.orderId, request.query.secret);
    },
  );

  app.post(
    "/checkout/:orderId/confirm",
    {
      schema: {
        tags,
        summary:
          "Confirm a Stripe payment on the server: the card's country is read first (VAT evidence), then it is charged",
        params: z.object({ orderId: z.uuid() }),
        body: checkoutConfirmBodySchema,
        response: { 200: checkoutConfirmResultSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { outcome, total, vat } = await confirmCheckout(deps, request.params.orderId, request.body);
      if (outcome.status === "needs_country")
        return { status: outcome.status, countries: outcome.countries, total, vat };
      if (outcome.status !== "declined") return { status: outcome.status, total, vat };
      // Stripe's own texts are English; the buyer reads ours, in their language.
      const message =
        outcome.code === "payment_intent_authentication_failure"
          ? request.t("Your bank did not confirm the payment. Try again or use another card.")
          : request.t("Your card was declined. Try another card or contact your bank.");
      return { status: outcome.status, message, total, vat };
    },
  );

  app.get(
    "/checkout/:orderId",
    {
      schema: {
        tags,
        summary: "The outcome of a checkout, for the browser holding its secret",
        params: z.object({ orderId: z.uuid() }),
        querystring: checkoutStatusQuerySchema,
        response: { 200: checkoutStatusSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return checkoutStatus(deps, request.params.orderId, request.query.secret);
    },
  );

  await signedWebhookRoute(app, {
    url: "/webhooks/:provider",
    tags,
    summary: "Payment provider events (signed; each applied once)",
    params: z.object({ provider: paymentProviderSchema }),
    accepts: ({ provider }) => provider === payments.kind,
    signatureError: WebhookSignatureError,
    refusedAs: "BadRequestException",
    logLabel: "payment",
    handle: (raw, headers) => receivePaymentWebhook(deps, raw, headers),
  });
};
