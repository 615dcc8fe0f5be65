/** Settings the browser needs, served by /env.json at run time. */
export interface RuntimeConfig {
  apiUrl: string;
  analyticsId: string | null;
  analyticsSrc: string | null;
  chatWidgetSrc: string | null;
  /** How long an affiliate token is kept (AFFILIATE_COOKIE_DAYS). */
  referralDays: number;
  botCheck: { kind: "sandbox" | "turnstile"; siteKey: string | null };
}

let pending: Promise<RuntimeConfig> | null = null;

/** Fetched once per page load and shared by every caller. */
export function runtimeConfig(): Promise<RuntimeConfig> {
  pending ??= fetch("/env.json").then((res) => {
    if (!res.ok) throw new Error(`env.json: ${res.status}`);
    return res.json() as Promise<RuntimeConfig>;
  });
  pending.catch(() => {
    pending = null;
  });
  return pending;
}
