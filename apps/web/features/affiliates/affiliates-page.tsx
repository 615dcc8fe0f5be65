"use client";

import { type Campaign, type CampaignList, campaignListSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { CampaignCard } from "./campaign-card.tsx";
import { ClaimPanel } from "./claim-panel.tsx";
import { ClicksChart } from "./clicks-chart.tsx";
import { CreateCampaign } from "./create-campaign.tsx";
import { Earnings } from "./earnings.tsx";
import { ProgrammeRules } from "./programme-rules.tsx";
import { Referrals } from "./referrals.tsx";

/**
 * /account/affiliates: the programme's figures, what can be claimed, the campaigns with their
 * links and counts, clicks and sign-ups per day, the referred accounts and every commission.
 */
export function AffiliatesPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("affiliates");
  const queryClient = useQueryClient();
  const {
    data: list,
    failed,
    reload: load,
  } = useApiQuery(queryKeys.affiliates.campaigns, "/campaigns", campaignListSchema);

  const setItems = (update: (items: Campaign[]) => Campaign[]) =>
    queryClient.setQueryData<CampaignList>(
      queryKeys.affiliates.campaigns,
      (now) => now && { ...now, items: update(now.items) },
    );

  return (
    <section className="affiliates">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <div role="alert" className="aff-error">
          {/* Spec section 8: a failed load. */}
          <p className="field-error">{t("loadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : list === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <>
          <div className="aff-top">
            <ClaimPanel
              list={list}
              defaultCurrency={defaultCurrency}
              // A claim changes the balances and every commission's status: all is read again.
              onClaimed={() => void queryClient.invalidateQueries({ queryKey: queryKeys.affiliates.all })}
            />
            <ProgrammeRules rules={list.rules} />
          </div>
          <section className="aff-section" aria-labelledby="aff-campaigns-title">
            <h2 id="aff-campaigns-title">{t("campaignsTitle")}</h2>
            <CreateCampaign onCreated={(created) => setItems((items) => [created, ...items])} />
            {list.items.length === 0 ? (
              <div className="card empty-state aff-empty">
                <p>
                  <strong>{t("empty")}</strong>
                </p>
                <p className="muted">{t("emptyHint", { days: list.rules.cookieDays })}</p>
              </div>
            ) : (
              <ul className="aff-campaigns">
                {list.items.map((campaign) => (
                  <CampaignCard
                    key={campaign.id}
                    campaign={campaign}
                    defaultCurrency={defaultCurrency}
                    onChange={(saved) =>
                      setItems((items) => items.map((c) => (c.id === saved.id ? saved : c)))
                    }
                  />
                ))}
              </ul>
            )}
          </section>
          {list.items.length > 0 && (
            <>
              <ClicksChart campaigns={list.items} />
              <Referrals campaigns={list.items} defaultCurrency={defaultCurrency} />
              <Earnings campaigns={list.items} />
            </>
          )}
        </>
      )}
    </section>
  );
}
