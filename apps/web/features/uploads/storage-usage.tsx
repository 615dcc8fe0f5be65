"use client";

import type { UploadUsage } from "@salelink/contracts/uploads";
import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { formatBytes } from "@/components/ui/format-size.ts";
import { api } from "@/lib/api.ts";

/**
 * The account's storage as the API counts it (issue 16): "X MB of Y used", read when the field
 * appears and again after each upload. A failed read shows nothing: the upload itself still says
 * when the quota is reached.
 */
export function useStorageUsage(): { usage: UploadUsage | null; refresh: () => void } {
  const [usage, setUsage] = useState<UploadUsage | null>(null);
  const refresh = useCallback((signal?: AbortSignal) => {
    api("/profile/storage", {
      schema: () => import("@salelink/contracts/uploads").then((m) => m.uploadUsageSchema),
      signal,
    })
      .then(setUsage)
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);
  return { usage, refresh: () => refresh() };
}

export function StorageUsage({ id, usage }: { id: string; usage: UploadUsage | null }) {
  const t = useTranslations("upload");
  const locale = useLocale();
  if (!usage) return null;
  const full = usage.usedBytes >= usage.quotaBytes;
  return (
    <small id={id} className={full ? "field-error upload-usage" : "muted upload-usage"}>
      {t("storageUsed", {
        used: formatBytes(usage.usedBytes, locale),
        quota: formatBytes(usage.quotaBytes, locale),
      })}{" "}
      <meter
        min={0}
        max={usage.quotaBytes}
        value={Math.min(usage.usedBytes, usage.quotaBytes)}
        aria-label={t("storageMeter")}
      />
    </small>
  );
}
