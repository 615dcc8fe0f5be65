/*
 * The disputes part of the fake Stripe. A test opens a dispute on a succeeded PaymentIntent with
 * `open` (the issuer's side, which no API call can do) and settles it with `close`; the API side is
 * Stripe's: `GET /v1/disputes/:id`, `POST /v1/disputes/:id` (evidence, metadata, submit) and
 * `POST /v1/disputes/:id/close` (accepting the dispute). Every change sends its event carrying the
 * whole dispute, as Stripe's do: `charge.dispute.created`, `.updated`, `.closed`, `.funds_withdrawn`,
 * `.funds_reinstated`.
 *
 * Money moves as on Stripe: a chargeback (not an inquiry, Stripe's `warning_*`) withdraws the
 * disputed amount and a dispute fee from the platform's balance, as a balance transaction on the
 * dispute; a won chargeback reinstates the amount, and the fee when the network returns it.
 */

interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
}
type Result = { status: number; body: unknown };
type Params = Record<string, string>;
type StripeObject = Record<string, unknown>;

export interface DisputeDeps {
  intents: Map<string, StripeObject>;
  nextId(prefix: string): string;
  stripeError(status: number, error: StripeErrorBody): Result;
  missing(what: string, id: string | undefined): Result;
  metadataOf(params: Params): Record<string, string>;
  deliver(type: string, object: StripeObject): void;
}

const now = () => Math.floor(Date.now() / 1000);
/** Days the merchant has to answer in this fake (Stripe's depend on the network and reason). */
const RESPONSE_DAYS = 7;
/** Stripe's dispute fee in this fake, in the dispute's currency's minor units, unless a test sets one. */
const DEFAULT_FEE = 1500;
/** Stripe's limit on all text evidence of a dispute together. */
const EVIDENCE_CHARACTERS = 150_000;
/** The evidence fields of Stripe's dispute object (text, or a file upload's id). */
const EVIDENCE_FIELDS = [
  "access_activity_log",
  "billing_address",
  "cancellation_policy",
  "cancellation_policy_disclosure",
  "cancellation_rebuttal",
  "customer_communication",
  "customer_email_address",
  "customer_name",
  "customer_purchase_ip",
  "customer_signature",
  "duplicate_charge_documentation",
  "duplicate_charge_explanation",
  "duplicate_charge_id",
  "product_description",
  "receipt",
  "refund_policy",
  "refund_policy_disclosure",
  "refund_refusal_explanation",
  "service_date",
  "service_documentation",
  "shipping_address",
  "shipping_carrier",
  "shipping_date",
  "shipping_documentation",
  "shipping_tracking_number",
  "uncategorized_file",
  "uncategorized_text",
];
/** Where evidence is still taken; `under_review` and the closed states refuse it. */
const OPEN = ["needs_response", "warning_needs_response"];
const CLOSED = ["won", "lost", "warning_closed"];

export function disputeRoutes(deps: DisputeDeps) {
  const disputes = new Map<string, StripeObject>();
  const { nextId, stripeError, missing } = deps;
  const invalid = (message: string, code?: string) =>
    stripeError(400, { type: "invalid_request_error", message, ...(code ? { code } : {}) });
  const transactionsOf = (dispute: StripeObject) => dispute.balance_transactions as StripeObject[];

  const balanceTransaction = (
    dispute: StripeObject,
    amount: number,
    fee: number,
    reportingCategory: "dispute" | "dispute_reversal",
  ) => ({
    id: nextId("txn"),
    object: "balance_transaction",
    amount,
    currency: dispute.currency,
    fee,
    fee_details: fee === 0 ? [] : [{ amount: fee, currency: dispute.currency, type: "stripe_fee" }],
    net: amount - fee,
    type: "adjustment",
    reporting_category: reportingCategory,
    source: dispute.id,
    status: "available",
    created: now(),
  });

  /** The issuer opens a dispute: a chargeback, or an inquiry (which withdraws nothing). */
  const open = (
    paymentIntentId: string,
    options: { amount?: number; reason?: string; inquiry?: boolean; fee?: number } = {},
  ) => {
    const intent = deps.intents.get(paymentIntentId);
    if (intent?.status !== "succeeded")
      throw new Error(`fake Stripe: no succeeded payment intent ${paymentIntentId} to dispute`);
    intent.latest_charge ??= nextId("ch");
    const amount = options.amount ?? Number(intent.amount_received);
    if (!Number.isInteger(amount) || amount < 1 || amount > Number(intent.amount_received))
      throw new Error(`fake Stripe: cannot dispute ${amount} of ${String(intent.amount_received)}`);
    const inquiry = options.inquiry === true;
    const dispute: StripeObject = {
      id: nextId("dp"),
      object: "dispute",
      amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: paymentIntentId,
      reason: options.reason ?? "fraudulent",
      status: inquiry ? "warning_needs_response" : "needs_response",
      evidence: Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, null])),
      evidence_details: {
        due_by: now() + RESPONSE_DAYS * 24 * 3600,
        has_evidence: false,
        past_due: false,
        submission_count: 0,
      },
      balance_transactions: [],
      // A chargeback has already given the buyer their money back: refunding it too would pay twice.
      is_charge_refundable: inquiry,
      // The dispute's own metadata, empty as on Stripe: not the payment's.
      metadata: {},
      created: now(),
      livemode: false,
    };
    if (!inquiry)
      transactionsOf(dispute).push(
        balanceTransaction(dispute, -amount, options.fee ?? DEFAULT_FEE, "dispute"),
      );
    disputes.set(String(dispute.id), dispute);
    deps.deliver("charge.dispute.created", dispute);
    if (!inquiry) deps.deliver("charge.dispute.funds_withdrawn", dispute);
    return dispute;
  };

  /**
   * The network decides. An inquiry closes as `warning_closed` either way (a buyer who goes on is a
   * new chargeback: open another dispute). A chargeback won after its withdrawal gives the amount
   * back, and the fee when `feeReturned`.
   */
  const close = (id: string, outcome: "won" | "lost", options: { feeReturned?: boolean } = {}) => {
    const dispute = disputes.get(id);
    if (!dispute) throw new Error(`fake Stripe: no dispute ${id}`);
    if (CLOSED.includes(String(dispute.status)))
      throw new Error(`fake Stripe: dispute ${id} is already ${String(dispute.status)}`);
    const inquiry = String(dispute.status).startsWith("warning_");
    dispute.status = inquiry ? "warning_closed" : outcome;
    const withdrawal = transactionsOf(dispute).find((t) => Number(t.amount) < 0);
    if (!inquiry && outcome === "won" && withdrawal) {
      const fee = options.feeReturned ? -Number(withdrawal.fee) : 0;
      transactionsOf(dispute).push(
        balanceTransaction(dispute, -Number(withdrawal.amount), fee, "dispute_reversal"),
      );
      deps.deliver("charge.dispute.funds_reinstated", dispute);
    }
    deps.deliver("charge.dispute.closed", dispute);
    return dispute;
  };

  const update = (id: string, params: Params): Result => {
    const dispute = disputes.get(id);
    if (!dispute) return missing("dispute", id);
    const evidence: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      const field = /^evidence\[(.+)\]$/.exec(key)?.[1];
      if (field === undefined) continue;
      if (!EVIDENCE_FIELDS.includes(field))
        return invalid(`Received unknown parameter: evidence[${field}]`, "parameter_unknown");
      evidence[field] = value;
    }
    const given = Object.keys(evidence).length > 0;
    if (params.submit !== undefined && params.submit !== "true" && params.submit !== "false")
      return invalid("Invalid boolean: submit", "parameter_invalid_boolean");
    // Evidence is submitted unless `submit=false` stages it; `submit=true` alone submits what is staged.
    const submitting = params.submit === "true" || (given && params.submit !== "false");
    if ((given || submitting) && !OPEN.includes(String(dispute.status)))
      return invalid(`This dispute is ${String(dispute.status)}: it no longer accepts evidence.`);
    const merged = { ...(dispute.evidence as Record<string, string | null>), ...evidence };
    const characters = Object.values(merged).reduce((sum, text) => sum + (text?.length ?? 0), 0);
    if (characters > EVIDENCE_CHARACTERS)
      return invalid(`The evidence may not exceed ${EVIDENCE_CHARACTERS} characters in total.`);
    const details = dispute.evidence_details as StripeObject;
    dispute.evidence = merged;
    if (given) details.has_evidence = true;
    if (submitting) {
      dispute.status = dispute.status === "needs_response" ? "under_review" : "warning_under_review";
      details.submission_count = Number(details.submission_count) + 1;
    }
    dispute.metadata = { ...(dispute.metadata as Record<string, string>), ...deps.metadataOf(params) };
    deps.deliver("charge.dispute.updated", dispute);
    return { status: 200, body: dispute };
  };

  /** The merchant accepts the dispute: lost (an inquiry: closed), nothing more to submit. */
  const accept = (id: string): Result => {
    const dispute = disputes.get(id);
    if (!dispute) return missing("dispute", id);
    if (!OPEN.includes(String(dispute.status)))
      return invalid(`This dispute is ${String(dispute.status)}: it can no longer be closed.`);
    dispute.status = dispute.status === "needs_response" ? "lost" : "warning_closed";
    deps.deliver("charge.dispute.closed", dispute);
    return { status: 200, body: dispute };
  };

  return {
    disputes,
    open,
    close,
    /** Whether a chargeback stands against the payment, which then refuses refunds as Stripe does. */
    chargedBack: (paymentIntentId: string) =>
      [...disputes.values()].some((d) => d.payment_intent === paymentIntentId && !d.is_charge_refundable),
    handle(route: string, params: Params): Result | null {
      const match = /^(GET|POST) \/v1\/disputes\/([^/]+)(\/close)?$/.exec(route);
      if (!match?.[2]) return null;
      const id = decodeURIComponent(match[2]);
      if (match[3]) return match[1] === "POST" ? accept(id) : null;
      if (match[1] === "POST") return update(id, params);
      const dispute = disputes.get(id);
      return dispute ? { status: 200, body: dispute } : missing("dispute", id);
    },
  };
}
