"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import type { PartnerDay } from "@salelink/contracts/partner-sales";
import { useLocale, useTranslations } from "next-intl";
import { formatAmounts } from "@/features/affiliates/money-list.ts";

const SLOT = 10;
const BAR = 3.5;
const HEIGHT = 64;

/**
 * Clicks and sales per day over the chosen period, drawn as the affiliates' chart draws its own
 * (inline SVG bars with its styles, named by a one-line summary, the figures in a hidden table);
 * the API answers every day of the period, zeros included.
 */
export function MembershipChart({
  days,
  period,
  defaultCurrency,
}: {
  days: PartnerDay[];
  period: number;
  defaultCurrency: Currency;
}) {
  const t = useTranslations("partners.membership");
  const locale = useLocale();
  const max = Math.max(1, ...days.map((d) => Math.max(d.clicks, d.sales)));
  const clicks = days.reduce((sum, d) => sum + d.clicks, 0);
  const sales = days.reduce((sum, d) => sum + d.sales, 0);
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const active = days.filter((d) => d.clicks + d.sales > 0 || d.commission.some((c) => c.amount !== 0));
  const first = days[0];
  const last = days.at(-1);
  const width = Math.max(1, days.length) * SLOT;
  const bar = (d: PartnerDay, i: number, value: number, offset: number, kind: "clicks" | "sales") => {
    if (value === 0) return null;
    const height = Math.max(2, (value / max) * (HEIGHT - 4));
    return (
      <rect
        key={`${d.date}-${kind}`}
        // The affiliates' colours: clicks, then the second series.
        className={`aff-bar ${kind === "clicks" ? "aff-bar-clicks" : "aff-bar-signups"}`}
        x={i * SLOT + 1.5 + offset}
        y={HEIGHT - height}
        width={BAR}
        height={height}
        rx="1"
      >
        <title>{`${dayLabel(d.date)}: ${t(kind === "clicks" ? "chartClicks" : "chartSales", { count: value })}`}</title>
      </rect>
    );
  };

  return (
    <figure className="aff-chart card">
      <figcaption className="aff-legend">
        <span className="aff-key aff-key-clicks">{t("chartClicks", { count: clicks })}</span>
        <span className="aff-key aff-key-signups">{t("chartSales", { count: sales })}</span>
      </figcaption>
      <svg
        role="img"
        aria-label={t("chartSummary", { clicks, sales, days: period })}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="aff-chart-svg"
      >
        <line className="aff-chart-base" x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((d, i) => [bar(d, i, d.clicks, 0, "clicks"), bar(d, i, d.sales, BAR, "sales")])}
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
              <th scope="col">{t("sales")}</th>
              <th scope="col">{t("commission")}</th>
            </tr>
          </thead>
          <tbody>
            {active.map((d) => (
              <tr key={d.date}>
                <td>{dayLabel(d.date)}</td>
                <td>{d.clicks}</td>
                <td>{d.sales}</td>
                <td>{formatAmounts(d.commission, locale, defaultCurrency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
