"use client";

import { type Campaign, type CampaignList, campaignListSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/api.ts";
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
  const [list, setList] = useState<CampaignList | null>(null);
  const [failed, setFailed] = useState(false);
  /** Bumped after a claim: the sections below read their figures again. */
  const [version, setVersion] = useState(0);

  const load = useCallback((signal?: AbortSignal) => {
    setFailed(false);
    api("/campaigns", { schema: campaignListSchema, signal })
      .then(setList)
      .catch(() => {
        if (!signal?.aborted) setFailed(true);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const setItems = (update: (items: Campaign[]) => Campaign[]) =>
    setList((now) => now && { ...now, items: update(now.items) });

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
              onClaimed={() => {
                load();
                setVersion((v) => v + 1);
              }}
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
              <ClicksChart campaigns={list.items} version={version} />
              <Referrals campaigns={list.items} defaultCurrency={defaultCurrency} version={version} />
              <Earnings campaigns={list.items} version={version} />
            </>
          )}
        </>
      )}
    </section>
  );
}
