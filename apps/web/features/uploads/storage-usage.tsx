"use client";

import type { UploadUsage } from "@salelink/contracts/uploads";
import { useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { formatBytes } from "@/components/ui/format-size.ts";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";

const usageSchema = () => import("@salelink/contracts/uploads").then((m) => m.uploadUsageSchema);

/**
 * The account's storage as the API counts it (issue 16): "X MB of Y used", read when the field
 * appears and again after each upload. A failed read shows nothing: the upload itself still says
 * when the quota is reached.
 */
export function useStorageUsage(): { usage: UploadUsage | null; refresh: () => void } {
  const queryClient = useQueryClient();
  const { data } = useApiQuery(queryKeys.storageUsage, "/profile/storage", usageSchema);
  return {
    usage: data,
    refresh: () => void queryClient.invalidateQueries({ queryKey: queryKeys.storageUsage }),
  };
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
