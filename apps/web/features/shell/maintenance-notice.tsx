"use client";

import { isLocale } from "@salelink/contracts/locales";
import type { MaintenanceStatus } from "@salelink/contracts/maintenance";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { api } from "@/lib/api.ts";

const loadMaintenanceSchema = () =>
  import("@salelink/contracts/maintenance").then((m) => m.maintenanceStatusSchema);

/** The maintenance page's text: the operator's message in the visitor's language, if any. */
export function MaintenanceNotice() {
  const t = useTranslations("maintenance");
  const locale = useLocale();
  const [status, setStatus] = useState<MaintenanceStatus | null>(null);

  useEffect(() => {
    api("/maintenance", { schema: loadMaintenanceSchema })
      .then(setStatus)
      .catch(() => setStatus(null));
  }, []);

  const custom = status?.message && isLocale(locale) ? status.message[locale] : undefined;
  const since = status?.lastUpdated
    ? new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(
        new Date(status.lastUpdated),
      )
    : null;
  return (
    <>
      <p className="lead">{custom || t("text")}</p>
      {status?.maintenance && since && <p className="muted">{t("since", { date: since })}</p>}
    </>
  );
}
