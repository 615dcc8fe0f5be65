import {
  adminReasonBodySchema,
  checkoutBodySchema,
  checkoutCancelQuerySchema,
  checkoutCancelResponseSchema,
  checkoutResponseSchema,
  checkoutStatusQuerySchema,
  checkoutStatusSchema,
  messageResponseSchema,
  orderViewSchema,
  paymentProviderSchema,
  reportBodySchema,
  sandboxAuthenticateBodySchema,
  sandboxCards,
  sandboxConfirmBodySchema,
  sandboxPaymentResultSchema,
} from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { adminAuditLog, orders, sandboxPayments } from "../../db/schema/index.ts";
import { jobKind } from "../../jobs/index.ts";
import { AppError, notFound } from "../../lib/errors.ts";
import { signedWebhookRoute } from "../../lib/signed-webhook.ts";
import { loopbackOnly } from "../../plugins/dev-routes.ts";
import {
  SANDBOX_SIGNATURE_HEADER,
  type SandboxEvent,
  sandboxEvent,
  sandboxWebhookSecret,
  signPayload,
  WebhookSignatureError,
} from "../../providers/payments/index.ts";
import { audit } from "../audit/queries.ts";
import { checkoutCaller } from "./caller.ts";
import { applyPaymentEvent, releaseHold, releaseHoldJob, releaseHoldsAsOf } from "./events.ts";
import { fileReport, orderByToken, reporterKey } from "./orders.ts";
import { type CheckoutDeps, cancelCheckout, checkoutStatus, createCheckout } from "./service.ts";
import { refundUnfulfilled, refundUnfulfilledJob } from "./unfulfilled.ts";

/** The sandbox's deliveries: signed at each attempt, received by the webhook's own handler. */
const sandboxDeliverJob = jobKind(
  "payments.sandbox-deliver",
  z.object({ event: z.custom<SandboxEvent>((v) => typeof v === "object" && v !== null) }),
);

/** `/stripe/checkout`, the outcome for the paying browser, the providers' webhook, the sandbox's card form. */
export const checkoutRoutes: FastifyPluginAsyncZod<CheckoutDeps> = async (app, deps) => {
  const { db, config, payments } = deps;
  const tags = ["checkout"];

  /** Verifies a delivery and applies its event in `tx`: the one path for Stripe's and the sandbox's. */
  async function receive(tx: Tx, rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
    const event = payments.parseWebhook(rawBody, headers);
    if (!event) return "ignored" as const;
    return applyPaymentEvent(tx, config, payments.kind, event);
  }

  const { registry } = app.services.jobs;
  registry.register(sandboxDeliverJob, async (tx, { event }) => {
    const raw = JSON.stringify(event);
    const header = signPayload(raw, sandboxWebhookSecret(config.appSecret), Math.floor(Date.now() / 1000));
    await receive(tx, Buffer.from(raw), { [SANDBOX_SIGNATURE_HEADER]: header });
  });
  registry.register(releaseHoldJob, async (tx, { orderId }) => {
    // Run at the end of the hold; a clock a little behind makes it try again shortly.
    if ((await releaseHold(tx, orderId)) === "not-due") throw new Error("The hold is not over yet");
  });
  registry.register(refundUnfulfilledJob, (tx, payload) => refundUnfulfilled(tx, payments, payload));
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

  app.get(
    "/orders/:token",
    {
      schema: {
        tags: ["orders"],
        summary: "The buyer's order (the receipt's secret link), with short-lived links to its files",
        params: z.object({ token: z.string().max(128) }),
        response: { 200: orderViewSchema },
      },
    },
    async (request, reply) => {
      // The signed URLs inside expire: never cached, never referred to another site.
      reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer");
      return orderByToken({ db, storage: app.services.storage }, request.params.token);
    },
  );

  app.post(
    "/report",
    {
      config: {
        rateLimit: {
          max: 20,
          timeWindow: 60 * 60 * 1000,
          keyGenerator: (request) => `report:${request.ip}`,
        },
      },
      schema: {
        tags: ["orders"],
        summary: "Report a link or an order to the platform's team",
        body: reportBodySchema,
        response: { 201: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await fileReport(
        db,
        {
          ...request.body,
          reporterKey: reporterKey(config.appSecret, request.ip, request.headers["user-agent"]),
        },
        { perDay: config.REPORTS_PER_DAY_MAX },
      );
      return reply.code(201).send({ message: request.t("Thank you. Our team will look at your report.") });
    },
  );

  app.post(
    "/admin/orders/:id/refund",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary: "Refund a paid order in full, with a reason (applied when the provider confirms it)",
        params: z.object({ id: z.uuid() }),
        body: adminReasonBodySchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const admin = await request.requireUser();
      /** The order, refundable: paid, and no refund asked yet (it stays "paid" until the provider confirms). */
      async function refundable(tx: DbOrTx, lock: boolean) {
        const query = tx
          .select({
            id: orders.id,
            status: orders.status,
            paymentId: orders.providerPaymentId,
            total: orders.totalMinor,
            currency: orders.currency,
          })
          .from(orders)
          .where(eq(orders.id, request.params.id));
        const [order] = lock ? await query.for("update") : await query;
        if (!order) throw notFound("Order");
        if (order.status !== "paid" || !order.paymentId) {
          throw new AppError("ConflictException", "Only a paid order can be refunded.");
        }
        const [asked] = await tx
          .select({ id: adminAuditLog.id })
          .from(adminAuditLog)
          .where(
            and(
              eq(adminAuditLog.action, "order.refund"),
              eq(adminAuditLog.targetType, "order"),
              eq(adminAuditLog.targetId, order.id),
            ),
          )
          .limit(1);
        if (asked) throw new AppError("ConflictException", "A refund of this order is already under way.");
        return { ...order, paymentId: order.paymentId };
      }

      const order = await refundable(db, false);
      // Asked before anything is recorded: should the provider refuse, nothing is. Its idempotency
      // key makes concurrent or repeated asks one refund at the provider.
      await payments.refund({
        paymentId: order.paymentId,
        amountMinor: order.total,
        idempotencyKey: `refund-${order.id}`,
      });
      await db.transaction(async (tx) => {
        // Checked again under the row's lock: of two concurrent asks, one records it, the other gets 409.
        await refundable(tx, true);
        await audit(tx, {
          actorId: admin.id,
          action: "order.refund",
          targetType: "order",
          targetId: order.id,
          reason: request.body.reason,
          details: { amountMinor: order.total, currency: order.currency },
        });
        if (payments.kind === "sandbox") {
          // Stripe reports the refund with its own event; the sandbox sends its own the same way.
          await sandboxDeliverJob.enqueue(
            tx,
            {
              event: sandboxEvent("refund.succeeded", {
                paymentId: order.paymentId,
                orderId: order.id,
                amountMinor: order.total,
                currency: order.currency,
              }),
            },
            { dedupeKey: `sandbox-refund:${order.id}` },
          );
        }
      });
      if (payments.kind === "sandbox") deps.pokeJobs();
      return reply.code(202).send({ message: request.t("The refund has been asked for.") });
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
    handle: (raw, headers) => db.transaction((tx) => receive(tx, raw, headers)),
  });

  // Anonymous and it makes pending money withdrawable: DEV_ROUTES only, loopback clients only.
  if (config.DEV_ROUTES) {
    app.post(
      "/dev/holds/release",
      {
        onRequest: loopbackOnly,
        schema: {
          tags: ["dev"],
          summary: "Development only: release the holds that would be over at a given time",
          // orderIds: only these sales (tests running side by side leave each other's holds alone).
          body: z.object({ asOf: z.iso.datetime(), orderIds: z.array(z.uuid()).min(1).max(100).optional() }),
          response: { 200: z.object({ released: z.number().int() }) },
        },
      },
      async (request) => ({
        released: await releaseHoldsAsOf(db, new Date(request.body.asOf), request.body.orderIds),
      }),
    );
  }

  if (payments.kind !== "sandbox") return;

  // --- The sandbox's card form (labelled as a sandbox on the payment page) -----------------------
  const paymentParams = z.object({ paymentId: z.string().regex(/^sbx_pi_[A-Za-z0-9_-]+$/) });

  async function settle(
    paymentId: string,
    outcome: "succeeded" | "failed" | "requires_action",
    reason?: string,
  ) {
    await db.transaction(async (tx) => {
      const [payment] = await tx
        .update(sandboxPayments)
        .set({ status: outcome })
        .where(eq(sandboxPayments.id, paymentId))
        .returning();
      if (!payment || outcome === "requires_action") return;
      await sandboxDeliverJob.enqueue(tx, {
        event: sandboxEvent(outcome === "succeeded" ? "payment.succeeded" : "payment.failed", {
          paymentId,
          orderId: payment.orderId,
          amountMinor: payment.amountMinor,
          currency: payment.currency,
          ...(reason ? { failureReason: reason } : {}),
        }),
      });
    });
    deps.pokeJobs();
  }

  async function findPayment(paymentId: string) {
    const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId));
    if (!payment) throw notFound("Payment");
    return payment;
  }

  app.post(
    "/sandbox/payments/:paymentId/confirm",
    {
      schema: {
        tags: ["sandbox"],
        summary: "Pay a sandbox payment with a test card",
        params: paymentParams,
        body: sandboxConfirmBodySchema,
        response: { 200: sandboxPaymentResultSchema },
      },
    },
    async (request) => {
      const payment = await findPayment(request.params.paymentId);
      if (payment.status === "succeeded") return { status: "succeeded" as const };
      if (payment.status !== "requires_payment_method" && payment.status !== "failed") {
        throw new AppError("ConflictException", "This payment cannot be paid again.");
      }
      const { card } = request.body;
      if (card === sandboxCards.success) {
        await settle(payment.id, "succeeded");
        return { status: "succeeded" as const };
      }
      if (card === sandboxCards.authenticate) {
        await settle(payment.id, "requires_action");
        return { status: "requires_action" as const };
      }
      const message =
        card === sandboxCards.declined
          ? request.t("Your card was declined.")
          : request.t("This is the sandbox: pay with one of the test cards shown.");
      await settle(
        payment.id,
        "failed",
        card === sandboxCards.declined ? "card-declined" : "unknown-test-card",
      );
      return { status: "declined" as const, message };
    },
  );

  app.post(
    "/sandbox/payments/:paymentId/authenticate",
    {
      schema: {
        tags: ["sandbox"],
        summary: "Complete or refuse the extra confirmation step of a sandbox payment",
        params: paymentParams,
        body: sandboxAuthenticateBodySchema,
        response: { 200: sandboxPaymentResultSchema },
      },
    },
    async (request) => {
      const payment = await findPayment(request.params.paymentId);
      if (payment.status === "succeeded") return { status: "succeeded" as const };
      if (payment.status !== "requires_action") {
        throw new AppError("ConflictException", "This payment is not waiting for a confirmation.");
      }
      if (request.body.approve) {
        await settle(payment.id, "succeeded");
        return { status: "succeeded" as const };
      }
      await settle(payment.id, "failed", "authentication-failed");
      return { status: "declined" as const, message: request.t("The confirmation was refused.") };
    },
  );
};
