import type { ReactNode } from "react";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { QueryProvider } from "@/components/ui/query-provider.tsx";
import { SiteHeader } from "@/features/shell/site-header.tsx";

/**
 * The dashboards' frame (the account area's and the admin console's): the site header, then the
 * section's navigation beside its page, with the message namespaces the section's client code uses.
 */
export function DashboardFrame({
  className,
  namespaces,
  nav,
  children,
}: {
  /** Added to "container dashboard", for the section's own styles. */
  className?: string;
  namespaces: string[];
  nav: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="site">
      <SiteHeader />
      <div className={className ? `container dashboard ${className}` : "container dashboard"}>
        <ClientMessages namespaces={namespaces}>
          {nav}
          {/* The page's one main landmark: the header and the section's navigation stay outside it. */}
          {/* The client data cache is the dashboards' own: the buyer pages never load it (decision 026). */}
          <QueryProvider>
            <main className="dashboard-main">{children}</main>
          </QueryProvider>
        </ClientMessages>
      </div>
    </div>
  );
}
