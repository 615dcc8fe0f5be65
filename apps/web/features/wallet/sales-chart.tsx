"use client";

import type { SalesSummary } from "@salelink/contracts/wallet";
import { useLocale, useTranslations } from "next-intl";
import { formatMoney } from "@/lib/money.ts";

const DAYS = 30;
const DAY_MS = 86_400_000;
const BAR_SLOT = 10;
const BAR_WIDTH = 7;
const HEIGHT = 64;

type Day = { date: string; sales: number; amounts: { currency: string; amount: number }[] };

/** The last 30 days, oldest first, today included; days are UTC days, as the API counts them. */
function lastDays(rows: SalesSummary["days"], now: Date): Day[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DAYS }, (_, i) => {
    const date = new Date(today - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    const same = rows.filter((r) => r.date === date);
    return {
      date,
      sales: same.reduce((sum, r) => sum + r.sales, 0),
      amounts: same.map((r) => ({ currency: r.currency, amount: r.amount })),
    };
  });
}

/**
 * Sales per day as inline SVG bars (no chart library). Screen readers get a one-line summary as the
 * image's name and the figures in a visually hidden table.
 */
export function SalesChart({ rows }: { rows: SalesSummary["days"] }) {
  const t = useTranslations("dashboard");
  const locale = useLocale();
  const days = lastDays(rows, new Date());
  const max = Math.max(1, ...days.map((d) => d.sales));
  const total = days.reduce((sum, d) => sum + d.sales, 0);
  const best = days.reduce<Day | null>((top, d) => (d.sales > (top?.sales ?? 0) ? d : top), null);
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const summary = [
    t("chartSummary", { sales: total }),
    best ? t("chartBest", { date: dayLabel(best.date), count: best.sales }) : "",
  ]
    .filter(Boolean)
    .join(" ");
  const withSales = days.filter((d) => d.sales > 0);
  const first = days[0];
  const last = days.at(-1);

  return (
    <figure className="sales-chart card">
      <figcaption>
        <strong>{t("chartTitle")}</strong> <span className="muted">{t("chartUnit")}</span>
      </figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${DAYS * BAR_SLOT} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="sales-chart-svg"
      >
        <line className="sales-chart-base" x1="0" x2={DAYS * BAR_SLOT} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((d, i) => {
          if (d.sales === 0) return null;
          const height = Math.max(3, (d.sales / max) * (HEIGHT - 4));
          return (
            <rect
              key={d.date}
              className="sales-chart-bar"
              x={i * BAR_SLOT + (BAR_SLOT - BAR_WIDTH) / 2}
              y={HEIGHT - height}
              width={BAR_WIDTH}
              height={height}
              rx="1.5"
            >
              <title>{`${dayLabel(d.date)}: ${d.sales}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last && (
        <div className="sales-chart-axis muted" aria-hidden="true">
          <span>{dayLabel(first.date)}</span>
          <span>{dayLabel(last.date)}</span>
        </div>
      )}
      {withSales.length > 0 && (
        <table className="sr-only">
          <caption>{t("chartTable")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("day")}</th>
              <th scope="col">{t("salesCount")}</th>
              <th scope="col">{t("amount")}</th>
            </tr>
          </thead>
          <tbody>
            {withSales.map((d) => (
              <tr key={d.date}>
                <td>{dayLabel(d.date)}</td>
                <td>{d.sales}</td>
                <td>
                  {new Intl.ListFormat(locale, { type: "unit" }).format(
                    d.amounts.map((a) => formatMoney(a.amount, a.currency, locale)),
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
