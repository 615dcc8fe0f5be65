import { consentScript } from "../features/shell/consent-script.ts";
import { themeScript } from "../features/shell/theme.tsx";
import { contentSecurityPolicy, storageOrigin, zodJitlessScript } from "../lib/content-security-policy.ts";
import { serverEnv } from "../lib/server-env.ts";
import { scriptHash } from "./script-policy.ts";

type PolicySettings = Pick<
  typeof serverEnv,
  | "apiPublicUrl"
  | "analyticsId"
  | "analyticsSrc"
  | "chatWidgetSrc"
  | "paymentProvider"
  | "botCheck"
  | "storage"
>;

/**
 * The inline scripts of the root layout (app/[locale]/layout.tsx), constants of ours: allowed by
 * hash on every page, whether the page's other scripts come with hashes or with a nonce.
 */
export const ownInlineScripts = [zodJitlessScript, themeScript, consentScript] as const;
export const ownScriptHashes: ReadonlySet<string> = new Set(ownInlineScripts.map(scriptHash));

/**
 * The policy of an answer, from the web app's run-time settings (lib/server-env.ts), with the
 * inline-script sources (hashes, a nonce) that answer needs added to script-src.
 */
export function pagePolicy(
  settings: PolicySettings = serverEnv,
  development = false,
): (scriptSources: readonly string[]) => string {
  const inputs = {
    apiPublicUrl: settings.apiPublicUrl,
    analyticsSrc: settings.analyticsId ? settings.analyticsSrc : null,
    chatWidgetSrc: settings.chatWidgetSrc || null,
    stripe: settings.paymentProvider === "stripe",
    turnstile: settings.botCheck.kind === "turnstile",
    storageOrigin: storageOrigin(settings.storage),
    development,
  };
  return (scriptSources) => contentSecurityPolicy({ ...inputs, scriptSources });
}
