"use client";

import { librarySchema } from "@salelink/contracts/purchases";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { LibraryList } from "./library-list.tsx";

/** The account's own purchases: the library of its verified address, read through the cache. */
export function AccountPurchases() {
  const t = useTranslations("purchases");
  const { data, failed, reload } = useApiQuery(queryKeys.purchases, "/purchases", librarySchema);
  if (failed) {
    return (
      <div role="alert">
        <p className="field-error">{t("loadFailed")}</p>
        <button type="button" className="btn btn-ghost" onClick={reload}>
          {t("retry")}
        </button>
      </div>
    );
  }
  if (data === null) return <p aria-busy="true">{t("loading")}</p>;
  return (
    <>
      <LibraryList library={data} accessToken={null} />
      <p className="muted">
        {t("otherAddress")} <Link href="/purchases">{t("otherAddressLink")}</Link>
      </p>
    </>
  );
}
