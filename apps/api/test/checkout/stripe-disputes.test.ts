import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signPayload } from "../../src/providers/payments/signature.ts";
import { StripePaymentProvider, StripeRequestError } from "../../src/providers/payments/stripe.ts";
import {
  type DisputeEvidence,
  type DisputeSnapshot,
  WebhookSignatureError,
} from "../../src/providers/payments/types.ts";
import { PUBLISHABLE_KEY, SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

/*
 * Issue 32: Stripe's dispute events, as the fake Stripe sends them through a dispute's life, read
 * into the snapshot the orders module applies; and the evidence sent back.
 */

const WEBHOOK_SECRET = "whsec_fake_dispute_secret";
const ORDER_ID = "0b6f3c2e-8d1a-4f5b-9c7e-3a2d1f0e9b8c";

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let stripe: StripePaymentProvider;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = new StripePaymentProvider({
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.url,
  });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

let orders = 0;

/** A payment of `amountMinor` taken by card through the fake, as the checkout takes it. */
async function paid(amountMinor = 2500): Promise<string> {
  const { paymentId } = await stripe.createPayment({
    orderId: ORDER_ID,
    amountMinor,
    currency: "EUR",
    buyerEmail: "buyer@example.com",
    description: "Sunset pack",
    idempotencyKey: `order-${++orders}`,
  });
  const res = await fetch(`${fake.url}/v1/confirmation_tokens`, {
    method: "POST",
    body: new URLSearchParams({ key: PUBLISHABLE_KEY, payment_method: "pm_card_fr" }),
  });
  const token = ((await res.json()) as { id: string }).id;
  const confirmation = stripe.serverConfirmation;
  const outcome = await confirmation.confirmPayment({
    paymentId,
    token,
    amountMinor,
    idempotencyKey: `confirm-${paymentId}`,
  });
  expect(outcome).toEqual({ status: "succeeded" });
  return paymentId;
}

/** A delivery signed as Stripe signs it, now, with the endpoint's secret. */
function delivery(event: unknown) {
  const body = Buffer.from(JSON.stringify(event));
  const header = signPayload(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
  return { body, headers: { "stripe-signature": header, "content-type": "application/json" } };
}

/** The fake's events since the last call, each parsed from a signed delivery. */
function parsedEvents() {
  return fake.events.splice(0).map((event) => {
    const { body, headers } = delivery(event);
    return { type: String(event.type), parsed: stripe.parseWebhook(body, headers) };
  });
}

/** The dispute snapshot each of the fake's new events parses into, with the event's type. */
function snapshots(): { type: string; dispute: DisputeSnapshot }[] {
  return parsedEvents()
    .filter((e) => e.type.startsWith("charge.dispute."))
    .map(({ type, parsed }) => {
      if (parsed?.type !== "dispute") throw new Error(`${type} did not parse as a dispute`);
      return { type, dispute: parsed.dispute };
    });
}

const dueBy = (dispute: Record<string, unknown>) =>
  new Date(Number((dispute.evidence_details as { due_by: number }).due_by) * 1000);

const evidence: DisputeEvidence = {
  productDescription: "Sunset pack: 24 photographs, downloaded as a ZIP file.",
  customerEmailAddress: "buyer@example.com",
  accessActivityLog: "2026-01-01T10:00:00Z paid\n2026-01-01T10:01:12Z downloaded from 203.0.113.7",
  refundPolicyDisclosure: "Shown before payment: refunds within 14 days unless downloaded.",
  serviceDate: "2026-01-01",
  uncategorizedText: "Receipt R-2026-0001, invoice F-2026-0001.",
};

describe("Stripe's dispute events, from the fake Stripe", () => {
  it("follows a chargeback from its opening to a win with the fee returned", async () => {
    const paymentId = await paid(2500);
    fake.events.length = 0;
    const opened = fake.dispute(paymentId, { reason: "product_not_received" });
    const disputeId = String(opened.id);
    expect(opened).toMatchObject({
      object: "dispute",
      charge: expect.stringMatching(/^ch_/),
      payment_intent: paymentId,
      status: "needs_response",
      balance_transactions: [
        expect.objectContaining({ amount: -2500, fee: 1500, net: -4000, reporting_category: "dispute" }),
      ],
    });
    const open: DisputeSnapshot = {
      disputeId,
      paymentId,
      orderId: null,
      amountMinor: 2500,
      currency: "EUR",
      reason: "product_not_received",
      status: "needs_response",
      evidenceDueBy: dueBy(opened),
      fundsWithdrawn: true,
      feeMinor: 1500,
    };
    expect(snapshots()).toEqual([
      { type: "charge.dispute.created", dispute: open },
      { type: "charge.dispute.funds_withdrawn", dispute: open },
    ]);
    expect(open.evidenceDueBy?.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);

    // Our order, once set on the dispute's own metadata (evidence only staged: nothing submitted).
    const tagged = await fetch(`${fake.url}/v1/disputes/${disputeId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}` },
      body: new URLSearchParams({ "metadata[orderId]": ORDER_ID, submit: "false" }),
    });
    expect(tagged.status).toBe(200);
    expect(snapshots()).toEqual([
      { type: "charge.dispute.updated", dispute: { ...open, orderId: ORDER_ID } },
    ]);

    await stripe.submitDisputeEvidence({ disputeId, evidence, idempotencyKey: `dispute-${disputeId}` });
    expect(snapshots()).toEqual([
      {
        type: "charge.dispute.updated",
        dispute: { ...open, orderId: ORDER_ID, status: "under_review" },
      },
    ]);

    fake.closeDispute(disputeId, "won", { feeReturned: true });
    const won = { ...open, orderId: ORDER_ID, status: "won", evidenceDueBy: null, fundsWithdrawn: false };
    expect(snapshots()).toEqual([
      { type: "charge.dispute.funds_reinstated", dispute: { ...won, feeMinor: 0 } },
      { type: "charge.dispute.closed", dispute: { ...won, feeMinor: 0 } },
    ]);
  });

  it("keeps the fee of a chargeback won without it, and the funds of one lost", async () => {
    const first = fake.dispute(await paid(1800), { fee: 2000 });
    fake.closeDispute(String(first.id), "won");
    const second = fake.dispute(await paid(900));
    fake.closeDispute(String(second.id), "lost");
    const closed = snapshots()
      .filter((s) => s.type === "charge.dispute.closed")
      .map((s) => s.dispute);
    expect(closed).toEqual([
      expect.objectContaining({ amountMinor: 1800, status: "won", fundsWithdrawn: false, feeMinor: 2000 }),
      expect.objectContaining({ amountMinor: 900, status: "lost", fundsWithdrawn: true, feeMinor: 1500 }),
    ]);
    expect(closed.map((d) => d.evidenceDueBy)).toEqual([null, null]);
  });

  it("reads an inquiry as one, withdrawing nothing, and its closing as inquiry_closed", async () => {
    const paymentId = await paid(3000);
    fake.events.length = 0;
    const inquiry = fake.dispute(paymentId, { inquiry: true, amount: 1000, reason: "general" });
    expect(inquiry.balance_transactions).toEqual([]);
    const asked = snapshots();
    expect(asked).toEqual([
      {
        type: "charge.dispute.created",
        dispute: expect.objectContaining({
          status: "inquiry",
          amountMinor: 1000,
          reason: "general",
          fundsWithdrawn: false,
          feeMinor: 0,
          evidenceDueBy: dueBy(inquiry),
        }),
      },
    ]);

    await stripe.submitDisputeEvidence({
      disputeId: String(inquiry.id),
      evidence,
      idempotencyKey: `dispute-${String(inquiry.id)}`,
    });
    expect(fake.disputes.get(String(inquiry.id))?.status).toBe("warning_under_review");
    expect(snapshots().map((s) => s.dispute.status)).toEqual(["inquiry"]);

    fake.closeDispute(String(inquiry.id), "won");
    expect(snapshots()).toEqual([
      {
        type: "charge.dispute.closed",
        dispute: expect.objectContaining({
          status: "inquiry_closed",
          evidenceDueBy: null,
          fundsWithdrawn: false,
        }),
      },
    ]);
  });

  it("reads a dispute accepted through the API as lost", async () => {
    const dispute = fake.dispute(await paid());
    fake.events.length = 0;
    const res = await fetch(`${fake.url}/v1/disputes/${String(dispute.id)}/close`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(snapshots()).toEqual([
      {
        type: "charge.dispute.closed",
        dispute: expect.objectContaining({ status: "lost", fundsWithdrawn: true, feeMinor: 1500 }),
      },
    ]);
    // A charged-back payment is not refunded a second time.
    await expect(
      stripe.refund({ paymentId: String(dispute.payment_intent), amountMinor: 100, idempotencyKey: "r-1" }),
    ).rejects.toMatchObject({ retryable: false, code: "charge_disputed" });
  });

  it("maps the statuses the fake does not produce, conservatively", async () => {
    const dispute = fake.dispute(await paid(), { reason: "fraudulent" });
    const created = fake.events.find((e) => e.type === "charge.dispute.created");
    const as = (overrides: Record<string, unknown>) => {
      const event = structuredClone(created) as { data: { object: Record<string, unknown> } };
      Object.assign(event.data.object, overrides);
      const { body, headers } = delivery(event);
      return stripe.parseWebhook(body, headers);
    };
    expect(as({ status: "prevented", balance_transactions: [] })).toMatchObject({
      dispute: { status: "inquiry_closed", evidenceDueBy: null, fundsWithdrawn: false, feeMinor: 0 },
    });
    expect(as({ status: "appeal_needs_response" })).toMatchObject({
      dispute: { status: "lost", evidenceDueBy: null, fundsWithdrawn: true },
    });
    expect(as({ status: "warning_under_review" })).toMatchObject({ dispute: { status: "inquiry" } });
    expect(() => as({ status: "escalated_somewhere" })).toThrow(/dispute status we do not know/);
    // The payment expanded: its id, and our order from its metadata when the dispute has none.
    expect(
      as({
        payment_intent: {
          id: dispute.payment_intent,
          object: "payment_intent",
          metadata: { orderId: ORDER_ID },
        },
      }),
    ).toMatchObject({ dispute: { paymentId: dispute.payment_intent, orderId: ORDER_ID } });
    // Not a payment of ours, or not in a currency we sell in.
    expect(as({ payment_intent: null })).toBeNull();
    expect(() => as({ currency: "jpy" })).toThrow(/currency we do not sell in/);
    expect(() => as({ amount: 12.5 })).toThrow(/invalid amount/);
  });

  it("refuses a tampered dispute event", async () => {
    fake.dispute(await paid(2500));
    const event = fake.events.find((e) => e.type === "charge.dispute.funds_withdrawn");
    const genuine = delivery(event);
    expect(stripe.parseWebhook(genuine.body, genuine.headers)).not.toBeNull();
    const tampered = Buffer.from(genuine.body.toString().replace('"amount":-2500', '"amount":2500'));
    expect(tampered.equals(genuine.body)).toBe(false);
    expect(() => stripe.parseWebhook(tampered, genuine.headers)).toThrow(WebhookSignatureError);
  });
});

describe("submitting a dispute's evidence to Stripe", () => {
  it("sends every field we have and submit=true with the key, once per key", async () => {
    const disputeId = String(fake.dispute(await paid()).id);
    fake.requests.length = 0;
    fake.events.length = 0;
    const input = { disputeId, evidence, idempotencyKey: `dispute-evidence-${disputeId}` };
    await stripe.submitDisputeEvidence(input);
    await stripe.submitDisputeEvidence(input);

    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests)
      expect(request).toEqual({
        method: "POST",
        path: `/v1/disputes/${disputeId}`,
        authorization: `Bearer ${SECRET_KEY}`,
        idempotencyKey: input.idempotencyKey,
        params: {
          "evidence[product_description]": evidence.productDescription,
          "evidence[customer_email_address]": "buyer@example.com",
          "evidence[access_activity_log]": evidence.accessActivityLog,
          "evidence[refund_policy_disclosure]": evidence.refundPolicyDisclosure,
          "evidence[service_date]": "2026-01-01",
          "evidence[uncategorized_text]": evidence.uncategorizedText,
          submit: "true",
        },
      });
    // The second call replayed the first answer: one submission, one event.
    const stored = fake.disputes.get(disputeId);
    expect(stored).toMatchObject({
      status: "under_review",
      evidence: { customer_name: null, billing_address: null, service_date: "2026-01-01" },
      evidence_details: { has_evidence: true, submission_count: 1 },
    });
    expect(fake.events.map((e) => e.type)).toEqual(["charge.dispute.updated"]);
  });

  it("sends the optional fields when given", async () => {
    const disputeId = String(fake.dispute(await paid()).id);
    fake.requests.length = 0;
    await stripe.submitDisputeEvidence({
      disputeId,
      evidence: { ...evidence, customerName: "Ada Lovelace", billingAddress: "1 Rue de Rivoli, Paris" },
      idempotencyKey: `dispute-evidence-${disputeId}`,
    });
    expect(fake.requests[0]?.params).toMatchObject({
      "evidence[customer_name]": "Ada Lovelace",
      "evidence[billing_address]": "1 Rue de Rivoli, Paris",
    });
  });

  it("surfaces evidence on a closed or submitted dispute as a non-retryable error", async () => {
    const closed = String(fake.dispute(await paid()).id);
    fake.closeDispute(closed, "lost");
    const error = await stripe
      .submitDisputeEvidence({ disputeId: closed, evidence, idempotencyKey: `dispute-evidence-${closed}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestError);
    expect(error).toMatchObject({ retryable: false, statusCode: 400 });
    expect((error as Error).message).toMatch(/lost: it no longer accepts evidence/);
    expect((error as Error).message).not.toContain(SECRET_KEY);

    // Under review: a second submission under another key is refused too.
    const submitted = String(fake.dispute(await paid()).id);
    await stripe.submitDisputeEvidence({ disputeId: submitted, evidence, idempotencyKey: "first" });
    await expect(
      stripe.submitDisputeEvidence({ disputeId: submitted, evidence, idempotencyKey: "second" }),
    ).rejects.toMatchObject({ name: "StripeRequestError", retryable: false, statusCode: 400 });
    await expect(
      stripe.submitDisputeEvidence({ disputeId: "dp_unknown", evidence, idempotencyKey: "third" }),
    ).rejects.toMatchObject({ retryable: false, statusCode: 404, code: "resource_missing" });
  });
});
