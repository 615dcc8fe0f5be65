import {
  LIBRARY_TOKEN_HEADER,
  libraryAccessSchema,
  libraryOrderParamsSchema,
  librarySchema,
  messageResponseSchema,
  PURCHASES_LINK_TTL_MINUTES,
  purchasesLinkBodySchema,
  purchasesOpenParamsSchema,
  RECEIPT_RESENDS_PER_HOUR,
} from "@salelink/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors.ts";
import { rateLimit } from "../auth/rate-limits.ts";
import { sharedCounter, tooManyAttempts } from "../catalogue/promo/limits.ts";
import {
  buyerOrder,
  libraryEmail,
  libraryOf,
  openLibrary,
  type PurchasesDeps,
  resendReceipt,
  sendLibraryLink,
} from "./service.ts";

/*
 * The buyer's library (issue 21): "send me my purchases" by e-mail, the one-time link, the library
 * behind the access it opens (or a verified account's own), and a receipt sent again.
 */
export const purchaseRoutes: FastifyPluginAsyncZod<PurchasesDeps> = async (app, deps) => {
  const { db, config } = deps;
  const tags = ["purchases"];
  const receiptAsks = sharedCounter(app, {
    max: RECEIPT_RESENDS_PER_HOUR,
    windowMs: 3_600_000,
    key: (request) => `receipt:${(request.params as { orderToken?: string }).orderToken ?? ""}`,
  });

  /** Whose library a call reads: the access header's address, else the session's verified one. */
  async function addressOf(request: FastifyRequest): Promise<string> {
    const access = request.headers[LIBRARY_TOKEN_HEADER];
    if (typeof access === "string") return libraryEmail(db, access);
    const user = await request.requireUser();
    if (!user.emailVerifiedAt) {
      throw new AppError("ForbiddenException", "Verify your e-mail address to see its purchases.");
    }
    return user.email;
  }

  app.post(
    "/purchases/link",
    {
      config: { rateLimit: rateLimit(config, "email") },
      schema: {
        tags,
        summary: "E-mail a one-time link to every purchase made with this address (same answer either way)",
        body: purchasesLinkBodySchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      await sendLibraryLink(deps, request.body.email, request.body.locale);
      return reply.code(202).send({
        message: request.t(
          "If this address was used for a purchase, a link to your purchases is on its way. It works once, for {minutes} minutes.",
          { minutes: PURCHASES_LINK_TTL_MINUTES },
        ),
      });
    },
  );

  app.post(
    "/purchases/open/:token",
    {
      schema: {
        tags,
        summary: "Open the e-mailed link (once): the library's access for this browser",
        params: purchasesOpenParamsSchema,
        response: { 200: libraryAccessSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return openLibrary(db, request.params.token);
    },
  );

  app.get(
    "/purchases/library",
    {
      schema: {
        tags,
        summary: `The purchases an access opens (header ${LIBRARY_TOKEN_HEADER})`,
        response: { 200: librarySchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const access = request.headers[LIBRARY_TOKEN_HEADER];
      return libraryOf(deps, await libraryEmail(db, typeof access === "string" ? access : undefined));
    },
  );

  app.get(
    "/purchases",
    {
      config: { auth: "user" },
      schema: {
        tags,
        summary: "The purchases made with my account's verified address",
        response: { 200: librarySchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return libraryOf(deps, await addressOf(request));
    },
  );

  app.post(
    "/purchases/library/orders/:orderToken/receipt",
    {
      schema: {
        tags,
        summary: "E-mail an order's receipt again (library access or a session)",
        params: libraryOrderParamsSchema,
        response: { 202: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const email = await addressOf(request);
      // Found first: only the buyer's own asks count against the order's allowance.
      const order = await buyerOrder(db, email, request.params.orderToken);
      const seconds = await receiptAsks.hit(request);
      if (seconds !== null) {
        throw tooManyAttempts(
          "This receipt was sent again a moment ago. Try again in {minutes} min.",
          seconds,
        );
      }
      await resendReceipt(deps, order);
      return reply.code(202).send({ message: request.t("The receipt is on its way to {email}.", { email }) });
    },
  );
};
