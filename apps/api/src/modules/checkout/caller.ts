import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import { promoAttempts, sharedCounter, tooManyAttempts } from "../catalogue/promo/limits.ts";
import type { CheckoutCaller } from "./types.ts";

const reserveMessage = "You have started too many checkouts. Please try again in {minutes} min.";

/**
 * The per-caller limits of checkout (issue 16, stock squatting): reservations per client address and
 * per buyer e-mail within a reservation period, counted in the shared rate-limit store, and the
 * wrong-promo-code limits shared with the quote route.
 */
export function checkoutCaller(app: FastifyInstance, config: Config) {
  const windowMs = config.CHECKOUT_RESERVATION_MINUTES * 60_000;
  const emails = new WeakMap<FastifyRequest, string>();
  const byAddress = sharedCounter(app, {
    max: config.CHECKOUT_RESERVATIONS_PER_ADDRESS_MAX,
    windowMs,
    key: (request) => `reserve:ip:${request.ip}`,
  });
  const byEmail = sharedCounter(app, {
    max: config.CHECKOUT_RESERVATIONS_PER_EMAIL_MAX,
    windowMs,
    key: (request) => `reserve:email:${emails.get(request) ?? ""}`,
  });
  const promo = promoAttempts(app, config);

  return (request: FastifyRequest, email: string): CheckoutCaller => {
    emails.set(request, email);
    return {
      async reserve() {
        // Both counted, so an address cycling e-mails and an e-mail cycling addresses both stop.
        const seconds = [await byAddress.hit(request), await byEmail.hit(request)].find((s) => s !== null);
        if (seconds != null) throw tooManyAttempts(reserveMessage, seconds);
      },
      promoAllowed: () => promo.assertAllowed(request),
      promoFailed: () => promo.failed(request),
    };
  };
}
