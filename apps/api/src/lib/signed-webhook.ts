import type { ExceptionName } from "@salelink/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { AppError, notFound } from "./errors.ts";

export interface SignedWebhookOptions<P extends z.ZodType> {
  url: string;
  tags: string[];
  summary: string;
  params?: P;
  /** False when the configured provider does not send these deliveries: the route answers 404. */
  accepts: (params: z.output<P>) => boolean;
  /** The provider's "not authentic" error, and how a refused delivery is answered. */
  signatureError: abstract new (
    ...args: never[]
  ) => Error;
  refusedAs: Extract<ExceptionName, "BadRequestException" | "UnauthorizedException">;
  logLabel: string;
  /** Verifies and applies one delivery; its answer is sent as `{ received: true, result }`. */
  handle: (rawBody: Buffer, headers: Record<string, string | string[] | undefined>) => Promise<string>;
}

/**
 * A provider's webhook route: the body is read as bytes (the signature covers them exactly as
 * sent), a delivery that is not authentic is refused and logged without its content, and the
 * provider's answer is `{ received: true, result }`. Payments, payouts and identity share it.
 */
export async function signedWebhookRoute<P extends z.ZodType>(
  app: FastifyInstance,
  options: SignedWebhookOptions<P>,
): Promise<void> {
  await app.register(async (plugin) => {
    const hooks = plugin.withTypeProvider<ZodTypeProvider>();
    hooks.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    hooks.post(
      options.url,
      {
        config: { maintenance: "allow" },
        schema: {
          tags: options.tags,
          summary: options.summary,
          ...(options.params ? { params: options.params } : {}),
        },
      },
      async (request, reply) => {
        if (!options.accepts(request.params as z.output<P>)) throw notFound("Webhook");
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw new AppError("BadRequestException", "The request is malformed.");
        try {
          return reply.send({ received: true, result: await options.handle(raw, request.headers) });
        } catch (error) {
          if (error instanceof options.signatureError) {
            request.log.warn({ reason: error.message }, `${options.logLabel} webhook refused`);
            throw new AppError(options.refusedAs, "The signature is not valid.");
          }
          throw error;
        }
      },
    );
  });
}
