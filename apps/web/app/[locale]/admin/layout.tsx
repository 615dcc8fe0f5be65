import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { AdminNav } from "@/features/admin/admin-nav.tsx";
import { SiteHeader } from "@/features/shell/site-header.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/admin/admin.css";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/** The admin console: the dashboard's layout with its own navigation. Each page guards itself. */
export default async function AdminLayout({
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
      <div className="container dashboard admin">
        <ClientMessages namespaces={["account", "admin"]}>
          <AdminNav />
          <div className="dashboard-main">{children}</div>
        </ClientMessages>
      </div>
    </div>
  );
}
