"use client";

import { type Campaign, type CampaignStats, campaignStatsSchema } from "@salelink/contracts/affiliates";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";

const DAYS = 30;
const DAY_MS = 86_400_000;
const SLOT = 10;
const BAR = 3.5;
const HEIGHT = 64;

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
  const max = Math.max(1, ...days.map((d) => Math.max(d.clicks, d.signups)));
  const clicks = days.reduce((sum, d) => sum + d.clicks, 0);
  const bots = days.reduce((sum, d) => sum + d.botClicks, 0);
  const filtered = days.reduce((sum, d) => sum + d.filteredClicks, 0);
  const signups = days.reduce((sum, d) => sum + d.signups, 0);
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const active = days.filter((d) => d.clicks + d.botClicks + d.filteredClicks + d.signups > 0);
  const first = days[0];
  const last = days.at(-1);
  const bar = (d: Day, value: number, offset: number, kind: "clicks" | "signups") => {
    if (value === 0) return null;
    const height = Math.max(2, (value / max) * (HEIGHT - 4));
    const i = days.indexOf(d);
    return (
      <rect
        key={`${d.date}-${kind}`}
        className={`aff-bar aff-bar-${kind}`}
        x={i * SLOT + 1.5 + offset}
        y={HEIGHT - height}
        width={BAR}
        height={height}
        rx="1"
      >
        <title>{`${dayLabel(d.date)}: ${t(kind === "clicks" ? "chartClicks" : "chartSignups", { count: value })}`}</title>
      </rect>
    );
  };

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
        <div role="alert" className="aff-error">
          <p className="field-error">{t("statsFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : stats === null ? (
        <p aria-busy="true" className="muted">
          {t("statsLoading")}
        </p>
      ) : (
        <figure className="aff-chart card">
          <figcaption className="aff-legend">
            <span className="aff-key aff-key-clicks">{t("chartClicks", { count: clicks })}</span>
            <span className="aff-key aff-key-signups">{t("chartSignups", { count: signups })}</span>
            <span className="muted">{t("chartBots", { count: bots })}</span>
            <span className="muted">{t("chartFiltered", { count: filtered })}</span>
          </figcaption>
          <svg
            role="img"
            aria-label={t("chartSummary", { clicks, signups, bots, days: DAYS })}
            viewBox={`0 0 ${DAYS * SLOT} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="aff-chart-svg"
          >
            <line className="aff-chart-base" x1="0" x2={DAYS * SLOT} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
            {days.map((d) => [bar(d, d.clicks, 0, "clicks"), bar(d, d.signups, BAR, "signups")])}
          </svg>
          {first && last && (
            <div className="aff-chart-axis muted" aria-hidden="true">
              <span>{dayLabel(first.date)}</span>
              <span>{dayLabel(last.date)}</span>
            </div>
          )}
          {active.length > 0 && (
            <table className="sr-only">
              <caption>{t("chartTable")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("day")}</th>
                  <th scope="col">{t("clicks")}</th>
                  <th scope="col">{t("bots")}</th>
                  <th scope="col">{t("filtered")}</th>
                  <th scope="col">{t("signups")}</th>
                </tr>
              </thead>
              <tbody>
                {active.map((d) => (
                  <tr key={d.date}>
                    <td>{dayLabel(d.date)}</td>
                    <td>{d.clicks}</td>
                    <td>{d.botClicks}</td>
                    <td>{d.filteredClicks}</td>
                    <td>{d.signups}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </figure>
      )}
    </section>
  );
}
