import {
  type SandboxPaymentResult as SandboxPaymentAnswer,
  sandboxAuthenticateBodySchema,
  sandboxConfirmBodySchema,
  sandboxPaymentResultSchema,
} from "@salelink/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  authenticatePayment,
  payWithCard,
  type SandboxPaymentDeps,
  type SandboxPaymentResult,
} from "./service.ts";

const paymentParams = z.object({ paymentId: z.string().regex(/^sbx_pi_[A-Za-z0-9_-]+$/) });

/** What the card form shows: a declined payment says why, in the buyer's language. */
function answer(request: FastifyRequest, result: SandboxPaymentResult): SandboxPaymentAnswer {
  if (result.status === "needs_country") return { status: result.status, countries: result.countries };
  if (result.status !== "declined") return { status: result.status };
  const message =
    result.reason === "card-declined"
      ? request.t("Your card was declined.")
      : result.reason === "authentication-failed"
        ? request.t("The confirmation was refused.")
        : request.t("This is the sandbox: pay with one of the test cards shown.");
  return { status: "declined", message };
}

/** The sandbox's card form (labelled as a sandbox on the payment page); registered only for the sandbox. */
export const sandboxPaymentRoutes: FastifyPluginAsyncZod<SandboxPaymentDeps> = async (app, deps) => {
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
    async (request) =>
      answer(
        request,
        await payWithCard(deps, request.params.paymentId, request.body.card, request.body.country ?? null),
      ),
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
    async (request) =>
      answer(request, await authenticatePayment(deps, request.params.paymentId, request.body.approve)),
  );
};
