export interface ProviderDescriptor {
  /** What the operator recognises, e.g. "bot-check", "payments". */
  name: string;
  kind: string;
  /** For providers whose stand-in is not called "sandbox" (mail's outbox, storage's local disk). */
  sandbox?: boolean;
}

export class SandboxInProductionError extends Error {}

/**
 * Sandbox payments take no money, and every payout provider pays real money (Stripe Connect by
 * itself, `manual` through the operator's bank transfer): together, a "sale" made with a test card
 * becomes a real withdrawal. Refused in production even with ALLOW_SANDBOX_PROVIDERS, which is
 * meant for demos of the other providers, not for this pair.
 */
export function assertPaymentsMatchPayouts(params: {
  nodeEnv: string;
  payments: string;
  payouts: string;
}): void {
  if (params.nodeEnv !== "production" || params.payments !== "sandbox") return;
  throw new SandboxInProductionError(
    `Refusing to start in production with sandbox payments beside real payouts: PAYMENT_PROVIDER=${params.payments} ` +
      `takes no money while PAYOUT_PROVIDER=${params.payouts} pays real money out. ` +
      "Set PAYMENT_PROVIDER=stripe (Stripe's test keys keep a demo free of real money).",
  );
}

/**
 * DESIGN section 2: production refuses to start with a sandbox provider unless explicitly allowed,
 * because a sandbox bot check lets every bot in and a sandbox payment provider takes no money.
 * Every offender is named at once so one restart fixes them all.
 */
export function assertProductionProviders(params: {
  nodeEnv: string;
  allowSandbox: boolean;
  providers: readonly ProviderDescriptor[];
}): void {
  if (params.nodeEnv !== "production" || params.allowSandbox) return;
  const sandboxed = params.providers.filter((p) => p.sandbox ?? p.kind === "sandbox");
  if (sandboxed.length === 0) return;
  const names = sandboxed.map((p) => `${p.name} (${p.kind})`).join(", ");
  throw new SandboxInProductionError(
    `Refusing to start in production with sandbox providers: ${names}. ` +
      "Configure the real providers, or set ALLOW_SANDBOX_PROVIDERS=true to run them on purpose.",
  );
}
