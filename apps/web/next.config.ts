import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { localeRewrites } from "./lib/locale-rewrites.ts";

// Messages are compiled at build time: the browser gets no ICU parser (about 12 KB gzip less).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

/**
 * Sent with every page and asset. The Content-Security-Policy names run-time origins (the API, the
 * configured scripts), so the web app's server (server/main.ts) adds it instead (decisions 015, 017).
 */
export const securityHeaders = [
  { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Order and checkout URLs carry secret tokens: other sites get the origin only.
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(self)" },
];

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The web app's server compresses instead, after its Content-Security-Policy hook has read the
  // page it hashes (server/main.ts, decision 020); Next.js's own would gzip it first.
  compress: false,
  transpilePackages: ["@salelink/contracts"],
  // app/global-not-found.tsx: Next.js renders a whole 404 page for unmatched URLs (our root layout
  // sits under [locale], so no root not-found.tsx can compose one).
  experimental: { globalNotFound: true },
  // Markdown content is read from disk at build time and by ISR at run time.
  outputFileTracingIncludes: { "/**": ["./content/**/*"] },
  // URLs carry no locale: each request is rewritten to its language's prerendered page. After the
  // filesystem (assets, /env.json), and the first rule that lands on a page wins.
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
  async rewrites() {
    return { beforeFiles: [], afterFiles: localeRewrites(), fallback: [] };
  },
};

export default withNextIntl(nextConfig);
