import { describe, expect, it, vi } from "vitest";
import { type CspInputs, contentSecurityPolicy, storageOrigin } from "../lib/content-security-policy.ts";

const base: CspInputs = {
  apiPublicUrl: "https://api.example.com/",
  analyticsSrc: null,
  chatWidgetSrc: null,
  stripe: false,
  turnstile: false,
  storageOrigin: null,
  development: false,
};

/** The policy as directive → sources. */
const parse = (policy: string): Map<string, string[]> =>
  new Map(
    policy.split("; ").map((d) => {
      const [name = "", ...sources] = d.split(" ");
      return [name, sources];
    }),
  );

describe("contentSecurityPolicy", () => {
  it("allows only this site and the API by default", () => {
    const p = parse(contentSecurityPolicy(base));
    expect(p.get("default-src")).toEqual(["'self'"]);
    expect(p.get("script-src")).toEqual(["'self'"]);
    expect(p.get("connect-src")).toEqual(["'self'", "https://api.example.com"]);
    expect(p.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://api.example.com"]);
    expect(p.get("frame-src")).toEqual(["'self'"]);
    expect(p.get("form-action")).toEqual(["'self'"]);
    expect(p.get("frame-ancestors")).toEqual(["'none'"]);
    expect(p.get("object-src")).toEqual(["'none'"]);
    expect(p.get("base-uri")).toEqual(["'self'"]);
  });

  it("adds the configured scripts' origins, Stripe and Turnstile only when they are on", () => {
    const p = parse(
      contentSecurityPolicy({
        ...base,
        analyticsSrc: "https://www.googletagmanager.com/gtag/js?id={id}",
        chatWidgetSrc: "https://widget.chat.example/w.js",
        stripe: true,
        turnstile: true,
        storageOrigin: "https://files.example.net",
      }),
    );
    const script = p.get("script-src") ?? [];
    expect(script).toContain("https://www.googletagmanager.com");
    expect(script).toContain("https://widget.chat.example");
    expect(script).toContain("https://js.stripe.com");
    expect(script).toContain("https://challenges.cloudflare.com");
    expect(p.get("connect-src")).toContain("https://*.google-analytics.com");
    expect(p.get("connect-src")).toContain("https://api.stripe.com");
    expect(p.get("frame-src")).toContain("https://hooks.stripe.com");
    expect(p.get("img-src")).toContain("https://files.example.net");
    expect(p.get("media-src")).toContain("https://files.example.net");
  });

  it("adds 'unsafe-eval' in development only", () => {
    expect(contentSecurityPolicy(base)).not.toContain("unsafe-eval");
    expect(parse(contentSecurityPolicy({ ...base, development: true })).get("script-src")).toContain(
      "'unsafe-eval'",
    );
  });

  it("ignores a setting that is not an http(s) URL rather than widening the policy", () => {
    const policy = contentSecurityPolicy({
      ...base,
      chatWidgetSrc: "javascript:alert(1)",
      analyticsSrc: "*",
    });
    expect(policy).not.toContain("javascript");
    expect(parse(policy).get("script-src")).toEqual(["'self'"]);
  });

  it("adds an answer's hashes and nonce to script-src, and nothing else that is offered there", () => {
    const hash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
    const nonce = "'nonce-q1w2e3r4t5y6u7i8o9p0aA=='";
    const p = parse(
      contentSecurityPolicy({
        ...base,
        scriptSources: [
          hash,
          nonce,
          "'unsafe-inline'",
          "https://evil.example",
          "*",
          "'sha256-x' 'unsafe-inline'",
        ],
      }),
    );
    expect(p.get("script-src")).toEqual(["'self'", hash, nonce]);
    expect(p.get("style-src")).not.toContain(hash);
  });
});

describe("storageOrigin", () => {
  const s3 = {
    kind: "s3" as const,
    endpoint: null,
    bucket: "files",
    region: "eu-west-3",
    forcePathStyle: true,
  };
  it("is the S3 endpoint where presigned URLs point", () => {
    expect(storageOrigin({ ...s3, kind: "local" })).toBeNull();
    expect(storageOrigin(s3)).toBe("https://s3.eu-west-3.amazonaws.com");
    expect(storageOrigin({ ...s3, forcePathStyle: false })).toBe("https://files.s3.eu-west-3.amazonaws.com");
    expect(storageOrigin({ ...s3, endpoint: "http://minio.local:9000/" })).toBe("http://minio.local:9000");
  });
});

describe("pagePolicy (what the web app's server sends)", () => {
  it("turns the run-time settings into the policy's inputs", async () => {
    vi.doMock("server-only", () => ({}));
    const { pagePolicy } = await import("../server/page-policy.ts");
    const settings = {
      apiPublicUrl: "https://api.example.com",
      analyticsId: "",
      analyticsSrc: "https://www.googletagmanager.com/gtag/js?id={id}",
      chatWidgetSrc: "",
      paymentProvider: "sandbox" as const,
      botCheck: { kind: "sandbox" as const, siteKey: null },
      storage: {
        kind: "local" as const,
        endpoint: null,
        bucket: "",
        region: "us-east-1",
        forcePathStyle: true,
      },
    };
    expect(pagePolicy(settings)([])).toBe(contentSecurityPolicy(base));
    // Analytics is allowed only with an id; Stripe, Turnstile and S3 only when they are the provider.
    const on = parse(
      pagePolicy({
        ...settings,
        analyticsId: "G-1",
        paymentProvider: "stripe",
        botCheck: { kind: "turnstile", siteKey: "k" },
        storage: { ...settings.storage, kind: "s3", endpoint: "https://files.example.net" },
      })([]),
    );
    expect(on.get("script-src")).toEqual(
      expect.arrayContaining([
        "https://www.googletagmanager.com",
        "https://js.stripe.com",
        "https://challenges.cloudflare.com",
      ]),
    );
    expect(on.get("img-src")).toContain("https://files.example.net");
    expect(parse(pagePolicy(settings, true)([])).get("script-src")).toContain("'unsafe-eval'");
  });
});
