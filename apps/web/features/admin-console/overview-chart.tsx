"use client";

import { useLocale } from "next-intl";

const BAR_SLOT = 10;
const BAR_WIDTH = 7;
const HEIGHT = 64;

export interface ChartDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  value: number;
  /** What the table shows beside the value (amounts per currency). */
  detail?: string;
}

/**
 * One figure per day as inline SVG bars (no chart library), in the wallet chart's style. The bars
 * are one image named by a summary; the figures themselves are in a table under a disclosure, for
 * everyone, not only for screen readers.
 */
export function OverviewChart({
  title,
  unit,
  summary,
  days,
  texts,
}: {
  title: string;
  unit: string;
  summary: string;
  days: ChartDay[];
  texts: { table: string; day: string; value: string; detail?: string };
}) {
  const locale = useLocale();
  const max = Math.max(1, ...days.map((d) => d.value));
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const first = days[0];
  const last = days.at(-1);
  const width = Math.max(1, days.length) * BAR_SLOT;

  return (
    <figure className="card admin-chart">
      <figcaption>
        <strong>{title}</strong> <span className="muted">{unit}</span>
      </figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="admin-chart-svg"
      >
        <line className="admin-chart-base" x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((d, i) => {
          if (d.value === 0) return null;
          const height = Math.max(3, (d.value / max) * (HEIGHT - 4));
          return (
            <rect
              key={d.date}
              className="admin-chart-bar"
              x={i * BAR_SLOT + (BAR_SLOT - BAR_WIDTH) / 2}
              y={HEIGHT - height}
              width={BAR_WIDTH}
              height={height}
              rx="1.5"
            >
              <title>{`${dayLabel(d.date)}: ${d.value}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last && (
        <div className="admin-chart-axis muted" aria-hidden="true">
          <span>{dayLabel(first.date)}</span>
          <span>{dayLabel(last.date)}</span>
        </div>
      )}
      <details className="admin-chart-table">
        <summary>{texts.table}</summary>
        <table>
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{texts.day}</th>
              <th scope="col">{texts.value}</th>
              {texts.detail && <th scope="col">{texts.detail}</th>}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{dayLabel(d.date)}</td>
                <td>{d.value}</td>
                {texts.detail && <td>{d.detail ?? ""}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
