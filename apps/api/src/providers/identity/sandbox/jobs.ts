import { z } from "zod";
import type { Tx } from "../../../db/client.ts";
import { type JobRegistry, jobKind } from "../../../jobs/index.ts";
import { AUTH_CLIENT_HEADER, SIGNATURE_HEADER, signBody } from "../signature.ts";
import type { WebhookHeaders } from "../types.ts";
import type { VeriffDecisionWebhook } from "../veriff.ts";
import { SANDBOX_CLIENT_KEY, sandboxIdentitySecret } from "./provider.ts";

/** The sandbox's decisions: signed at each attempt, received by the webhook's own handler. */
export const sandboxIdentityDeliverJob = jobKind(
  "identity.sandbox-deliver",
  z.object({ payload: z.custom<VeriffDecisionWebhook>((v) => typeof v === "object" && v !== null) }),
);

/** Verifies a signed delivery and applies it in `tx`: the webhook route's own path (kyc). */
export type ReceiveIdentityDelivery = (tx: Tx, rawBody: Buffer, headers: WebhookHeaders) => Promise<unknown>;

/** Registered only when the sandbox is the identity provider (app.ts). */
export function registerSandboxIdentityJobs(
  registry: JobRegistry,
  deps: { appSecret: string; receive: ReceiveIdentityDelivery },
): void {
  const secret = sandboxIdentitySecret(deps.appSecret);
  registry.register(sandboxIdentityDeliverJob, async (tx, { payload }) => {
    const raw = JSON.stringify(payload);
    await deps.receive(tx, Buffer.from(raw), {
      [AUTH_CLIENT_HEADER]: SANDBOX_CLIENT_KEY,
      [SIGNATURE_HEADER]: signBody(raw, secret),
    });
  });
}
