/**
 * The page's Content-Security-Policy, from the run-time settings (decision 015). A pure function of
 * its inputs: the web app's server builds it (server/page-policy.ts, decision 017), adding to
 * script-src the hashes or the nonce each answer needs (server/response-policy.ts, decision 020),
 * and tests read it directly.
 */
export interface CspInputs {
  /** The API as browsers reach it: fetches, thumbnails, local files' signed URLs. */
  apiPublicUrl: string;
  /** Script URL of the analytics tag, or null when analytics is off. */
  analyticsSrc: string | null;
  chatWidgetSrc: string | null;
  /** Stripe.js, its frames and its API are allowed only when Stripe takes payments. */
  stripe: boolean;
  /** Cloudflare Turnstile's script and frame, only when it is the bot check. */
  turnstile: boolean;
  /** Where signed file URLs point when files live in S3-compatible storage, else null. */
  storageOrigin: string | null;
  /** `next dev` evaluates code with eval() (React's debugging stacks); never in production. */
  development: boolean;
  /**
   * The inline scripts this answer may run: `'sha256-…'` hashes and `'nonce-…'` sources. Never
   * 'unsafe-inline' (decision 020): an inline script that is none of these is refused.
   */
  scriptSources?: readonly string[];
}

type Directive =
  | "default-src"
  | "script-src"
  | "style-src"
  | "img-src"
  | "media-src"
  | "font-src"
  | "connect-src"
  | "frame-src"
  | "worker-src"
  | "manifest-src"
  | "form-action"
  | "frame-ancestors"
  | "base-uri"
  | "object-src";

/** An absolute http(s) URL's origin, or null for anything else (a bad setting must not widen the policy). */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

// Stripe's published requirements for Stripe.js and the Payment Element (docs.stripe.com/security/guide).
const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
};
const TURNSTILE = "https://challenges.cloudflare.com";
// The Google tag loads from googletagmanager.com and reports to google-analytics.com's regional hosts.
const GOOGLE_ANALYTICS = [
  "https://*.googletagmanager.com",
  "https://*.google-analytics.com",
  "https://*.analytics.google.com",
];

// A hash or a nonce, nothing else: a bad value must not become 'unsafe-inline' or a host.
const INLINE_SOURCE = /^'(?:sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}|nonce-[A-Za-z0-9+/_-]+={0,2})'$/;

export function contentSecurityPolicy(inputs: CspInputs): string {
  const api = originOf(inputs.apiPublicUrl);
  const analytics = originOf(inputs.analyticsSrc);
  const analyticsHosts = analytics
    ? [analytics, ...(/googletagmanager\.com$/.test(new URL(analytics).hostname) ? GOOGLE_ANALYTICS : [])]
    : [];
  const chat = originOf(inputs.chatWidgetSrc);
  const chatHosts = chat ? [chat] : [];
  const stripe = inputs.stripe ? STRIPE : { script: [], frame: [], connect: [], img: [] };
  const turnstile = inputs.turnstile ? [TURNSTILE] : [];
  const files = [api, originOf(inputs.storageOrigin)].filter((o): o is string => o !== null);

  const policy: Record<Directive, string[]> = {
    "default-src": ["'self'"],
    // Inline scripts only by hash or nonce (decision 020): Next.js's per-page data scripts and the
    // root layout's constant ones; whatever an HTML injection adds has neither.
    "script-src": [
      "'self'",
      ...(inputs.scriptSources ?? []).filter((source) => INLINE_SOURCE.test(source)),
      ...(inputs.development ? ["'unsafe-eval'"] : []),
      ...analyticsHosts,
      ...chatHosts,
      ...stripe.script,
      ...turnstile,
    ],
    // React's style attributes and Next's inline style tags; the chat widget may bring a stylesheet.
    "style-src": ["'self'", "'unsafe-inline'", ...chatHosts],
    // QR codes are data: SVGs; upload previews may be blob: URLs.
    "img-src": ["'self'", "data:", "blob:", ...files, ...analyticsHosts, ...chatHosts, ...stripe.img],
    "media-src": ["'self'", "blob:", ...files],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...files, ...analyticsHosts, ...chatHosts, ...stripe.connect, ...turnstile],
    "frame-src": ["'self'", ...chatHosts, ...stripe.frame, ...turnstile],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    // Forms post to this site only (server actions, sign-out); a form injected elsewhere cannot leak.
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(policy)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(" ")}`)
    .join("; ");
}

/**
 * Inline, before any chunk: zod (v4) probes `new Function("")` to decide whether to compile its
 * parsers, and although it catches the refusal, the browser reports a `script-src` violation on
 * every page that parses a response. `jitless` skips the probe (zod keeps this config on globalThis).
 */
export const zodJitlessScript =
  "globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});";

export interface StorageSettings {
  kind: "local" | "s3";
  endpoint: string | null;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
}

/**
 * The origin of the API's presigned S3 URLs, built the way the AWS SDK builds them: the endpoint (or
 * AWS's regional host) with the bucket in the path, or as a subdomain without path style. Local
 * storage serves files from the API itself.
 */
export function storageOrigin(storage: StorageSettings): string | null {
  if (storage.kind !== "s3") return null;
  const base = originOf(storage.endpoint) ?? `https://s3.${storage.region}.amazonaws.com`;
  if (storage.forcePathStyle || !storage.bucket) return base;
  const url = new URL(base);
  url.hostname = `${storage.bucket}.${url.hostname}`;
  return url.origin;
}
