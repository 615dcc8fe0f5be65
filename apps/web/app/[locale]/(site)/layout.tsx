import type { ReactNode } from "react";
import { SiteFooter } from "@/features/shell/site-footer.tsx";
import { SiteHeader } from "@/features/shell/site-header.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

/** The default layout: header with language and colour switchers, footer with legal links. */
export default async function SiteLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  // Layouts render apart from pages: each one sets the locale for static rendering.
  await pageLocale(params);
  return (
    <div className="site">
      <SiteHeader />
      <div className="site-main">{children}</div>
      <SiteFooter />
    </div>
  );
}
