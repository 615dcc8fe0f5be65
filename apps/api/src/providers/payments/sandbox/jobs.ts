import type { Tx } from "../../../db/client.ts";
import type { JobRegistry } from "../../../jobs/index.ts";
import { signPayload } from "../signature.ts";
import { disputeLater, sandboxDisputeLaterJob } from "./dispute-service.ts";
import { SANDBOX_SIGNATURE_HEADER, sandboxDeliverJob, sandboxWebhookSecret } from "./events.ts";

export { sandboxDeliverJob } from "./events.ts";

/** Verifies a signed delivery and applies it in `tx`: the webhook route's own path (checkout). */
export type ReceivePaymentDelivery = (
  tx: Tx,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
) => Promise<unknown>;

/** Registered only when the sandbox is the payment provider (app.ts). */
export function registerSandboxPaymentJobs(
  registry: JobRegistry,
  deps: { appSecret: string; receive: ReceivePaymentDelivery },
): void {
  const secret = sandboxWebhookSecret(deps.appSecret);
  registry.register(sandboxDisputeLaterJob, (tx, { paymentId, feeMinor }) =>
    disputeLater(tx, paymentId, feeMinor),
  );
  registry.register(sandboxDeliverJob, async (tx, { event }) => {
    const raw = JSON.stringify(event);
    const header = signPayload(raw, secret, Math.floor(Date.now() / 1000));
    await deps.receive(tx, Buffer.from(raw), { [SANDBOX_SIGNATURE_HEADER]: header });
  });
}
