import { defaultLocale } from "@salelink/contracts/locales";
import type { MetadataRoute } from "next";
import { blogSlugs, legalSlugs } from "@/lib/content.ts";
import { serverEnv } from "@/lib/server-env.ts";

// Read at request time, so the addresses follow the deployment, not the build.
export const dynamic = "force-dynamic";

/** Public pages; one URL each, whatever the language (decision 003). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const paths = [
    "/",
    "/affiliate",
    "/blog",
    ...(await blogSlugs(defaultLocale)).map((slug) => `/blog/${slug}`),
    ...(await legalSlugs(defaultLocale)).map((slug) => `/legal/${slug}`),
  ];
  return paths.map((path) => ({ url: `${serverEnv.siteUrl}${path}` }));
}
