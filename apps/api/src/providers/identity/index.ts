import type { IdentityEnv } from "./env.ts";
import { SandboxIdentityProvider, sandboxIdentitySecret } from "./sandbox/provider.ts";
import type { IdentityProvider } from "./types.ts";
import { VeriffIdentityProvider, veriffOptions } from "./veriff.ts";

export { type IdentityEnv, identityEnvSchema } from "./env.ts";
export {
  SANDBOX_CLIENT_KEY,
  SandboxIdentityProvider,
  sandboxDecision,
  sandboxIdentitySecret,
} from "./sandbox/provider.ts";
export { AUTH_CLIENT_HEADER, SIGNATURE_HEADER, signBody, signedHeaders } from "./signature.ts";
export * from "./types.ts";
export { type VeriffDecisionWebhook, VeriffIdentityProvider, veriffEvent } from "./veriff.ts";

export function createIdentityProvider(
  env: IdentityEnv,
  options: { appSecret: string; webOrigin: string },
): IdentityProvider {
  if (env.IDENTITY_PROVIDER === "veriff") return new VeriffIdentityProvider(veriffOptions(env));
  return new SandboxIdentityProvider({
    webOrigin: options.webOrigin,
    webhookSecret: sandboxIdentitySecret(options.appSecret),
  });
}
