import type { ViesEnv } from "./env.ts";
import { SandboxViesProvider } from "./sandbox.ts";
import type { ViesProvider } from "./types.ts";
import { ViesRestProvider } from "./vies.ts";

export { type ViesEnv, viesEnvSchema } from "./env.ts";
export { SANDBOX_INVALID_SUFFIX, SANDBOX_UNAVAILABLE_SUFFIX, SandboxViesProvider } from "./sandbox.ts";
export * from "./types.ts";
export { VIES_API_URL, type ViesRestOptions, ViesRestProvider } from "./vies.ts";

export function createViesProvider(
  env: ViesEnv,
  options: { requesterVatNumber?: string; fetch?: typeof globalThis.fetch } = {},
): ViesProvider {
  if (env.VIES_PROVIDER === "sandbox") return new SandboxViesProvider();
  return new ViesRestProvider({ apiUrl: env.VIES_API_URL, timeoutMs: env.VIES_TIMEOUT_MS, ...options });
}
