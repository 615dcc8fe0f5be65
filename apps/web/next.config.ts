import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { localeRewrites } from "./lib/locale-rewrites.ts";

// Messages are compiled at build time: the browser gets no ICU parser (about 12 KB gzip less).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  transpilePackages: ["@salelink/contracts"],
  // Markdown content is read from disk at build time and by ISR at run time.
  outputFileTracingIncludes: { "/**": ["./content/**/*"] },
  // URLs carry no locale: each request is rewritten to its language's prerendered page. After the
  // filesystem (assets, /env.json), and the first rule that lands on a page wins.
  async rewrites() {
    return { beforeFiles: [], afterFiles: localeRewrites(), fallback: [] };
  },
};

export default withNextIntl(nextConfig);
