import { formatMoney } from "@salelink/contracts/money";
import type { Config } from "../../config.ts";
import type { Tx } from "../../db/client.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import { linkTag, queueRevalidate } from "../catalogue/revalidate.ts";
import { sellOwnUnits } from "../checkout/stock-queries.ts";
import { recordCustomers } from "../customers/queries.ts";
import { issueInvoices } from "../invoices/service.ts";
import { mailSendJob } from "../mail/jobs.ts";
import { saleNotificationRows } from "../notifications/service.ts";
import { postMany } from "../wallet/ledger.ts";
import { orderPaid } from "../wallet/postings.ts";
import {
  countPromoUses,
  countSales,
  insertJobs,
  lockOrders,
  type PaymentTarget,
  paymentTargets,
  recordPaymentEvents,
  refundedPaymentIds,
  setOrdersPaid,
} from "./batch-queries.ts";
import { type ApplyResult, paidValues, receiptMail, referralsOf, releaseHoldJob } from "./events.ts";
import { linksForMail, type OrderRow, type PaidOrderValues } from "./queries.ts";
import { saleFacts } from "./sale-facts.ts";
import { unfulfilledReason } from "./unfulfilled.ts";

/*
 * Payments applied in batches (decision 030). On launch day one creator's sales arrive by the
 * thousand; applied one per transaction they queue on that creator's rows (the link's count) and
 * each costs ~15 statements. Events that arrive while earlier batches are being applied are applied
 * together, in one transaction of set-based statements, and each delivery is answered when its
 * batch has committed: the provider's 200 still means "applied". Only the common case takes this
 * path (a payment of a pending order that can be fulfilled, nothing unusual); anything else, and
 * every event of a batch that fails for any reason, is applied one by one by `applyPaymentEvent`
 * (batcher.ts), so one bad event never fails the others.
 */

type ProviderKind = PaymentProvider["kind"];

/** Thrown inside a batch when an event is not the common case after all: the batch goes one by one. */
class NotCommonCase extends Error {}

export interface BatchOutcome {
  /** Per event of the batch, its result, or undefined for those left to the one-by-one path. */
  results: (ApplyResult | undefined)[];
}

/** The one order an event names, when it names exactly one. */
function targetOf(event: PaymentEvent, targets: PaymentTarget[]): PaymentTarget | undefined {
  const matches = targets.filter(
    (t) => t.providerPaymentId === event.paymentId || (event.orderId ? t.id === event.orderId : false),
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Applies the common-case `payment.succeeded` events of a batch inside `tx`, with the effects
 * `applyPaymentEvent` would have, each event once; the others are left (undefined) for it. Throws
 * (the caller then goes one by one) when a payment turns out not to be fulfillable.
 */
export async function applyPaymentBatch(
  tx: Tx,
  config: Config,
  provider: ProviderKind,
  events: PaymentEvent[],
): Promise<BatchOutcome> {
  const results: (ApplyResult | undefined)[] = events.map(() => undefined);
  const targets = await paymentTargets(
    tx,
    provider,
    events.map((e) => e.paymentId),
    events.flatMap((e) => (e.orderId ? [e.orderId] : [])),
  );
  const fast: { index: number; event: PaymentEvent; target: PaymentTarget }[] = [];
  const seenEvents = new Set<string>();
  const seenOrders = new Set<string>();
  events.forEach((event, index) => {
    // The same event twice in one batch: the later copy is a redelivery.
    if (seenEvents.has(event.id)) {
      results[index] = "duplicate";
      return;
    }
    seenEvents.add(event.id);
    const target = targetOf(event, targets);
    if (event.type !== "payment.succeeded" || !target || seenOrders.has(target.id)) {
      return;
    }
    seenOrders.add(target.id);
    fast.push({ index, event, target });
  });
  if (fast.length === 0) return { results };

  // The orders' rows, in id order so that two batches never deadlock; no lock on the links (the
  // stock re-check takes its own), whose rows are only updated last, by the sales' count. Locked
  // before anything is written: an event that is not the common case (its order already paid, a
  // refund reported first, another amount) is left out untouched, for the one-by-one path.
  const orders = new Map(
    (
      await lockOrders(
        tx,
        fast.map((f) => f.target.id),
      )
    ).map((o) => [o.id, o]),
  );
  const refunded = new Set(
    await refundedPaymentIds(
      tx,
      provider,
      fast.map((f) => f.event.paymentId),
    ),
  );
  const common = fast.filter(({ event, target }) => {
    const order = orders.get(target.id);
    return (
      order?.status === "pending" &&
      order.linkId === target.linkId &&
      event.amountMinor === order.totalMinor &&
      event.currency === order.currency &&
      !refunded.has(event.paymentId)
    );
  });
  if (common.length === 0) return { results };

  const recorded = await recordPaymentEvents(
    tx,
    provider,
    common.map(({ event, target }) => ({ event, orderId: target.id })),
  );
  const todo = common.filter(({ index, event }) => {
    if (recorded.has(event.id)) return true;
    results[index] = "duplicate";
    return false;
  });
  if (todo.length === 0) return { results };

  todo.sort((a, b) => (a.target.id < b.target.id ? -1 : 1));
  // A launch's payments are for a limited link: their own units are sold in one statement. Those
  // with a capped code, or whose unit was taken, are re-checked one by one below.
  const unitSold = await sellOwnUnits(
    tx,
    todo.flatMap(({ target }) => {
      const order = orders.get(target.id);
      return target.stockLimit !== null && order?.promoCodeId === null
        ? [{ linkId: target.linkId, orderId: target.id }]
        : [];
    }),
  );
  const referrals = await referralsOf(tx, config, [
    ...new Set(todo.flatMap(({ target }) => orders.get(target.id)?.creatorId ?? [])),
  ]);
  const paid: PaidInBatch[] = [];
  for (const { event, target } of todo) {
    const order = orders.get(target.id);
    if (!order) throw new NotCommonCase();
    // A limited stock or a capped code is re-checked as one by one (its unit sold here); a payment
    // that cannot be fulfilled has rules of its own: the batch goes one by one.
    if ((target.stockLimit !== null && !unitSold.has(order.id)) || order.promoCodeId !== null) {
      if (await unfulfilledReason(tx, config, order)) throw new NotCommonCase();
    }
    const referral = referrals.get(order.creatorId) ?? null;
    const { values, token } = paidValues(config, order, referral, event.createdAt);
    paid.push({ order, values, token, link: target });
  }

  await setOrdersPaid(
    tx,
    paid.map((p) => ({ orderId: p.order.id, values: p.values })),
  );
  await postMany(
    tx,
    paid.map((p) => orderPaid(saleFacts({ ...p.order, ...p.values }))),
  );
  const mailLinks = await linksForMail(tx, [...new Set(paid.map(({ order }) => order.linkId))]);
  await insertJobs(tx, [
    ...followUpJobs(config, paid, mailLinks),
    // The creators' sale e-mails: one row per creator and window for the whole batch.
    ...saleNotificationRows(
      config,
      paid.flatMap(({ order, values }) =>
        values.paidAt ? [{ creatorId: order.creatorId, paidAt: values.paidAt }] : [],
      ),
    ),
  ]);
  await recordCustomers(
    tx,
    paid.map((p) => ({
      creatorId: p.order.creatorId,
      email: p.order.buyerEmail,
      paidAt: p.values.paidAt ?? new Date(),
    })),
  );
  await countSalesOf(tx, config, paid);
  // Last, as one by one: the invoices' numbers are taken under their counter's lock until the commit.
  await issueInvoices(
    tx,
    config,
    paid.map((p) => ({
      order: { ...p.order, ...p.values, status: "paid" as const },
      title: mailLinks.get(p.order.linkId)?.title ?? "",
    })),
  );
  for (const { index } of todo) results[index] = "applied";
  return { results };
}

interface PaidInBatch {
  order: OrderRow;
  values: PaidOrderValues;
  token: string;
  link: PaymentTarget;
}

/** Each sale's receipt and hold release, as `markPaid` queues them. */
function followUpJobs(
  config: Config,
  paid: PaidInBatch[],
  mailLinks: Awaited<ReturnType<typeof linksForMail>>,
) {
  // A launch sells one price in one currency: each amount is formatted once per locale (Intl's
  // formatter is built per call, and was a twentieth of a batch's CPU).
  const amounts = new Map<string, string>();
  const amountOf = (order: OrderRow) => {
    const key = `${order.totalMinor}|${order.currency}|${order.locale}`;
    let text = amounts.get(key);
    if (text === undefined) {
      text = formatMoney(order.totalMinor, order.currency, order.locale);
      amounts.set(key, text);
    }
    return text;
  };
  return paid.flatMap(({ order, values, token }) => {
    const link = mailLinks.get(order.linkId) ?? null;
    const receipt = receiptMail(config, order, token, link, amountOf(order));
    const release = { orderId: order.id };
    // Checked as `enqueue` checks them, and stored as given, as it stores them.
    mailSendJob.schema.parse(receipt.mail);
    releaseHoldJob.schema.parse(release);
    return [
      { kind: mailSendJob.kind, payload: receipt.mail, dedupeKey: receipt.dedupeKey },
      {
        kind: releaseHoldJob.kind,
        payload: release,
        runAt: values.availableAt ?? undefined,
        dedupeKey: `release:${order.id}`,
      },
    ];
  });
}

/**
 * The links' and codes' counters, one update per row for the whole batch, last (their rows are
 * then held only until the commit), in id order; a limited stock's page is refreshed.
 */
async function countSalesOf(tx: Tx, config: Config, paid: PaidInBatch[]): Promise<void> {
  const perLink = new Map<string, number>();
  const perCode = new Map<string, number>();
  const limited = new Set<string>();
  for (const { order, link } of paid) {
    perLink.set(order.linkId, (perLink.get(order.linkId) ?? 0) + 1);
    if (order.promoCodeId) perCode.set(order.promoCodeId, (perCode.get(order.promoCodeId) ?? 0) + 1);
    if (link.stockLimit !== null) limited.add(linkTag(link.token));
  }
  await countSales(tx, perLink);
  for (const [codeId, used] of [...perCode].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await countPromoUses(tx, codeId, used);
  }
  if (limited.size > 0) await queueRevalidate(tx, config, limited);
}
