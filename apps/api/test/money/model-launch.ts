import { type Currency, checkoutResponseSchema } from "@salelink/contracts";
import { expect } from "vitest";
import { sandboxEvent } from "../../src/providers/payments/index.ts";
import type { MoneyModel } from "./model.ts";
import type { Cmd } from "./model-commands.ts";
import { call, checkInvariants, createLink, deliver, expectStatus, type World } from "./model-world.ts";

/*
 * A launch in the money model (issue 19): several buyers of one link, whose payment events all
 * arrive at once through the webhook, each `times` over. They are applied in batches
 * (orders/batcher.ts, decision 030): each sale exactly once, and the invariants then prove every
 * balance is what one-by-one payments would have made it.
 */

const resultOf = async (res: Awaited<ReturnType<typeof deliver>>) => {
  expectStatus(res, 200, "webhook");
  return (res.json() as { result: string }).result;
};

export class LaunchSales implements Cmd {
  constructor(
    readonly p: { seller: number; buyers: number; price: number; currency: Currency; times: number },
  ) {}
  check = () => true;
  async run(m: MoneyModel, w: World) {
    const token = await createLink(w, this.p.seller, {
      title: "Launch pack",
      priceMinor: this.p.price,
      currency: this.p.currency,
    });
    const started = [];
    for (let i = 0; i < this.p.buyers; i++) {
      const res = await call(w.ctx, "POST", "/stripe/checkout", undefined, {
        token,
        email: `launch-${i}@example.test`,
        locale: "en",
      });
      expectStatus(res, 201, "checkout");
      started.push(checkoutResponseSchema.parse(res.json()));
    }
    const events = started.map((s) =>
      sandboxEvent("payment.succeeded", {
        paymentId: s.paymentId,
        orderId: s.orderId,
        amountMinor: this.p.price,
        currency: this.p.currency,
      }),
    );
    const results = await Promise.all(
      events.flatMap((event) =>
        Array.from({ length: this.p.times }, async () => resultOf(await deliver(w.ctx, event))),
      ),
    );
    expect(
      results.filter((r) => r === "applied"),
      "launch sales applied",
    ).toHaveLength(this.p.buyers);
    expect(
      results.filter((r) => r === "duplicate"),
      "launch redeliveries",
    ).toHaveLength(this.p.buyers * (this.p.times - 1));
    started.forEach((s, i) => {
      const event = events[i];
      if (!event) return;
      w.events.set(event.id, event);
      m.paid({
        id: s.orderId,
        paymentId: s.paymentId,
        eventId: event.id,
        seller: this.p.seller,
        currency: this.p.currency,
        gross: this.p.price,
      });
    });
    await checkInvariants(w, m);
  }
  toString = () =>
    `launch(u${this.p.seller}, ${this.p.buyers} buyers of ${this.p.price} ${this.p.currency}, ×${this.p.times})`;
}
