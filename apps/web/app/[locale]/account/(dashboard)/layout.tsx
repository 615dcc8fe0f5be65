import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { DashboardNav } from "@/features/account/dashboard-nav.tsx";
import { SiteHeader } from "@/features/shell/site-header.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

export const metadata: Metadata = { robots: { index: false } };

/** The dashboard layout of the account area (spec section 2). */
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  await pageLocale(params);
  return (
    <div className="site">
      <SiteHeader />
      <div className="container dashboard">
        <ClientMessages
          namespaces={[
            "account",
            "settings",
            "profiles",
            "botCheck",
            "links",
            "upload",
            "portfolio",
            "promoCodes",
            "wallet",
            "dashboard",
            "payouts",
            "identity",
          ]}
        >
          <DashboardNav />
          <div className="dashboard-main">{children}</div>
        </ClientMessages>
      </div>
    </div>
  );
}
