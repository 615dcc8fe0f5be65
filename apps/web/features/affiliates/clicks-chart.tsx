"use client";

import { type Campaign, type CampaignStats, campaignStatsSchema } from "@salelink/contracts/affiliates";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { DayBars } from "@/components/ui/day-bars.tsx";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";

const DAYS = 30;
const DAY_MS = 86_400_000;

type Day = CampaignStats["days"][number];

/** The last 30 UTC days (as the API counts them), oldest first, days without data at zero. */
function lastDays(rows: Day[], now: Date): Day[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DAYS }, (_, i) => {
    const date = new Date(today - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    return (
      rows.find((r) => r.date === date) ?? { date, clicks: 0, botClicks: 0, filteredClicks: 0, signups: 0 }
    );
  });
}

/**
 * Clicks and sign-ups per day over 30 days, for every campaign or one: inline SVG bars (no chart
 * library), named by a one-line summary, the figures in a visually hidden table.
 */
export function ClicksChart({ campaigns }: { campaigns: Campaign[] }) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  const [campaignId, setCampaignId] = useState("");
  const {
    data: stats,
    failed,
    reload: load,
  } = useQueryState<CampaignStats>(
    useQuery({
      queryKey: queryKeys.affiliates.stats(campaignId),
      queryFn: ({ signal }) => {
        const query = `days=${DAYS}${campaignId ? `&campaignId=${campaignId}` : ""}`;
        return api(`/campaigns/stats?${query}`, { schema: campaignStatsSchema, signal });
      },
      // Another campaign chosen: the figures on screen stay until its own come.
      placeholderData: keepPreviousData,
    }),
  );

  const days = lastDays(stats?.days ?? [], new Date());
  const clicks = days.reduce((sum, d) => sum + d.clicks, 0);
  const bots = days.reduce((sum, d) => sum + d.botClicks, 0);
  const filtered = days.reduce((sum, d) => sum + d.filteredClicks, 0);
  const signups = days.reduce((sum, d) => sum + d.signups, 0);
  const active = days.filter((d) => d.clicks + d.botClicks + d.filteredClicks + d.signups > 0);

  return (
    <section className="aff-section" aria-labelledby="aff-chart-title">
      <div className="aff-section-head">
        <h2 id="aff-chart-title">{t("chartTitle")}</h2>
        {campaigns.length > 1 && (
          <div className="field aff-chart-filter">
            <label htmlFor="aff-chart-campaign">{t("chartCampaign")}</label>
            <select
              id="aff-chart-campaign"
              value={campaignId}
              onChange={(e) => setCampaignId(e.target.value)}
            >
              <option value="">{t("chartAll")}</option>
              {campaigns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {failed ? (
        <LoadFailed message={t("statsFailed")} retry={t("retry")} onRetry={() => load()} />
      ) : stats === null ? (
        <p aria-busy="true" className="muted">
          {t("statsLoading")}
        </p>
      ) : (
        <DayBars
          days={days}
          series={[
            {
              className: "aff-bar-clicks",
              value: (d) => d.clicks,
              title: (count) => t("chartClicks", { count }),
            },
            {
              className: "aff-bar-signups",
              value: (d) => d.signups,
              title: (count) => t("chartSignups", { count }),
            },
          ]}
          legend={
            <>
              <span className="aff-key aff-key-clicks">{t("chartClicks", { count: clicks })}</span>
              <span className="aff-key aff-key-signups">{t("chartSignups", { count: signups })}</span>
              <span className="muted">{t("chartBots", { count: bots })}</span>
              <span className="muted">{t("chartFiltered", { count: filtered })}</span>
            </>
          }
          summary={t("chartSummary", { clicks, signups, bots, days: DAYS })}
          caption={t("chartTable")}
          dayHeader={t("day")}
          columns={[
            { header: t("clicks"), cell: (d) => d.clicks },
            { header: t("bots"), cell: (d) => d.botClicks },
            { header: t("filtered"), cell: (d) => d.filteredClicks },
            { header: t("signups"), cell: (d) => d.signups },
          ]}
          active={active}
          locale={locale}
        />
      )}
    </section>
  );
}
