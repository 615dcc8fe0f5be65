export interface ProviderDescriptor {
  /** What the operator recognises, e.g. "bot-check", "payments". */
  name: string;
  kind: string;
  /** For providers whose stand-in is not called "sandbox" (mail's outbox, storage's local disk). */
  sandbox?: boolean;
}

export class SandboxInProductionError extends Error {}

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
