import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DashboardFrame } from "@/features/account/dashboard-frame.tsx";
import { AdminNav } from "@/features/admin-console/admin-nav.tsx";
import { pageLocale } from "@/lib/page-locale.ts";
import "@/features/admin-console/admin.css";

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
    <DashboardFrame
      className="admin"
      namespaces={["account", "admin", "adminOverview", "adminOps"]}
      nav={<AdminNav />}
    >
      {children}
    </DashboardFrame>
  );
}
