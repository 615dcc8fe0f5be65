import { createHmac } from "node:crypto";
import type { IdentityEnv } from "./env.ts";
import { SandboxIdentityProvider } from "./sandbox.ts";
import type { IdentityProvider } from "./types.ts";
import { VeriffIdentityProvider, veriffOptions } from "./veriff.ts";

export { type IdentityEnv, identityEnvSchema } from "./env.ts";
export { SANDBOX_CLIENT_KEY, SandboxIdentityProvider, sandboxDecision } from "./sandbox.ts";
export { AUTH_CLIENT_HEADER, SIGNATURE_HEADER, signBody, signedHeaders } from "./signature.ts";
export * from "./types.ts";
export { type VeriffDecisionWebhook, VeriffIdentityProvider, veriffEvent } from "./veriff.ts";

/** The sandbox signs its webhooks with a key derived from the app secret: nothing to configure. */
export const sandboxIdentitySecret = (appSecret: string): string =>
  createHmac("sha256", appSecret).update("sandbox-identity-webhook").digest("hex");

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
