import { contentSecurityPolicy, storageOrigin } from "../lib/content-security-policy.ts";
import { serverEnv } from "../lib/server-env.ts";

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

/** The policy every answer carries, from the web app's run-time settings (lib/server-env.ts). */
export function pagePolicy(settings: PolicySettings = serverEnv, development = false): string {
  return contentSecurityPolicy({
    apiPublicUrl: settings.apiPublicUrl,
    analyticsSrc: settings.analyticsId ? settings.analyticsSrc : null,
    chatWidgetSrc: settings.chatWidgetSrc || null,
    stripe: settings.paymentProvider === "stripe",
    turnstile: settings.botCheck.kind === "turnstile",
    storageOrigin: storageOrigin(settings.storage),
    development,
  });
}
