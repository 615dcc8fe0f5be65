"use client";

import { maintenanceRecheckMs } from "@salelink/contracts/shell-constants";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { api } from "@/lib/api.ts";

/** The status schema and the pages open during maintenance, loaded together after the page. */
const loadMaintenance = () => import("@salelink/contracts/maintenance");
let isExempt: ((pathname: string) => boolean) | undefined;
const loadMaintenanceSchema = () =>
  loadMaintenance().then((m) => {
    isExempt = m.isMaintenanceExempt;
    return m.maintenanceStatusSchema;
  });

/**
 * Spec section 4: on navigation, at most every 60 s, ask whether maintenance is on; send
 * non-admins to /maintenance while it is, and away from it when it is not. A failed check counts
 * as "off" and says nothing. The web server enforces the same on every request (decision 022); this
 * guard covers navigation inside the app. Sign-in and a payment under way stay open to everyone
 * (isMaintenanceExempt).
 */
export function MaintenanceGuard() {
  const pathname = usePathname();
  const router = useRouter();
  const { user, authChecked } = useAuth();
  const lastCheck = useRef<{ at: number; cooldown: number } | null>(null);
  const [on, setOn] = useState<boolean | null>(null);

  // Checks are never cancelled: the answer of the latest one wins, whatever order they arrive in.
  const latest = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the check runs on navigation.
  useEffect(() => {
    const last = lastCheck.current;
    if (last && Date.now() - last.at < Math.min(last.cooldown, maintenanceRecheckMs)) return;
    lastCheck.current = { at: Date.now(), cooldown: maintenanceRecheckMs };
    const id = ++latest.current;
    api("/maintenance", { schema: loadMaintenanceSchema })
      .then((status) => {
        if (id !== latest.current) return;
        lastCheck.current = { at: Date.now(), cooldown: status.cooldown ?? maintenanceRecheckMs };
        setOn(status.maintenance);
      })
      .catch(() => {
        if (id === latest.current) setOn(false);
      });
  }, [pathname]);

  useEffect(() => {
    if (on === null) return;
    if (on && pathname !== "/maintenance") {
      if (!authChecked || user?.role === "admin" || isExempt?.(pathname)) return;
      router.replace("/maintenance");
    } else if (!on && pathname === "/maintenance") {
      router.replace("/");
    }
  }, [on, pathname, user, authChecked, router]);

  return null;
}
