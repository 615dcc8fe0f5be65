import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  transpilePackages: ["@salelink/contracts"],
  // Markdown content is read from disk at build time and by ISR at run time.
  outputFileTracingIncludes: { "/**": ["./content/**/*"] },
};

export default withNextIntl(nextConfig);
