import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DashboardFrame } from "@/features/account/dashboard-frame.tsx";
import { DashboardNav } from "@/features/account/dashboard-nav.tsx";
import { pageLocale } from "@/lib/page-locale.ts";

export const metadata: Metadata = { robots: { index: false } };

/** The account area's client code, screen by screen: sent to the browser with every dashboard page. */
const namespaces = [
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
  "affiliates",
];

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
    <DashboardFrame namespaces={namespaces} nav={<DashboardNav />}>
      {children}
    </DashboardFrame>
  );
}
