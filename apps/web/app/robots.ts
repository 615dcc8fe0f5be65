import type { MetadataRoute } from "next";
import { serverEnv } from "@/lib/server-env.ts";

// Read at request time, so the addresses follow the deployment, not the build.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: "*", allow: "/", disallow: ["/account", "/order/", "/app/links/order/", "/signin"] },
    sitemap: `${serverEnv.siteUrl}/sitemap.xml`,
  };
}
