"use client";

import { type Campaign, type ReferralList, referralListSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/api.ts";
import { formatAmounts } from "./money-list.ts";

/** The accounts that signed up through a campaign, anonymised by the API. */
export function Referrals({
  campaigns,
  defaultCurrency,
  version,
}: {
  campaigns: Campaign[];
  defaultCurrency: Currency;
  version: number;
}) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  const [list, setList] = useState<ReferralList | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback((signal?: AbortSignal) => {
    setFailed(false);
    api("/campaigns/referrals", { schema: referralListSchema, signal })
      .then(setList)
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says the figures changed.
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, version]);

  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
  const campaignName = (id: string) => campaigns.find((c) => c.id === id)?.name ?? "—";

  return (
    <section className="aff-section" aria-labelledby="aff-referrals-title">
      <h2 id="aff-referrals-title">{t("referralsTitle")}</h2>
      {failed ? (
        <div role="alert" className="aff-error">
          <p className="field-error">{t("referralsFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : list === null ? (
        <p aria-busy="true" className="muted">
          {t("referralsLoading")}
        </p>
      ) : list.items.length === 0 ? (
        <p className="empty">{t("referralsEmpty")}</p>
      ) : (
        <div className="aff-scroll">
          <table className="aff-table" aria-labelledby="aff-referrals-title">
            <thead>
              <tr>
                <th scope="col">{t("account")}</th>
                <th scope="col">{t("campaign")}</th>
                <th scope="col">{t("joined")}</th>
                <th scope="col">{t("earnsUntil")}</th>
                <th scope="col" className="num">
                  {t("sales")}
                </th>
                <th scope="col" className="num">
                  {t("earned")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((r) => (
                <tr key={r.id}>
                  <td className="aff-account">{r.account}</td>
                  <td>{campaignName(r.campaignId)}</td>
                  <td>
                    <time dateTime={r.joinedAt}>{day.format(new Date(r.joinedAt))}</time>
                  </td>
                  <td>
                    <time dateTime={r.earnsUntil}>{day.format(new Date(r.earnsUntil))}</time>
                  </td>
                  <td className="num">{r.sales}</td>
                  <td className="num">{formatAmounts(r.earned, locale, defaultCurrency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
