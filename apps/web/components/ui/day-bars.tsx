import type { ReactNode } from "react";

const SLOT = 10;
const BAR = 3.5;
const HEIGHT = 64;

/** One of the two series drawn side by side for each day. */
export interface DaySeries<D> {
  /** The bar's colour class (`aff-bar-clicks`, `aff-bar-signups`). */
  className: string;
  value: (day: D) => number;
  /** A bar's tooltip after the day: "3 clicks". */
  title: (count: number) => string;
}

/** A column of the visually hidden table that carries the figures. */
export interface DayColumn<D> {
  header: string;
  cell: (day: D) => ReactNode;
}

/**
 * Two figures per UTC day as inline SVG bars (no chart library): named by a one-line summary, with
 * a legend, the first and last days under it, and the figures of the days with any in a visually
 * hidden table. The affiliates' and the partners' charts draw with it.
 */
export function DayBars<D extends { date: string }>({
  days,
  series,
  legend,
  summary,
  caption,
  dayHeader,
  columns,
  active,
  locale,
}: {
  /** Every day of the period, oldest first (days without data at zero). */
  days: D[];
  series: [DaySeries<D>, DaySeries<D>];
  legend: ReactNode;
  summary: string;
  caption: string;
  /** The table's first column: the day. */
  dayHeader: string;
  columns: DayColumn<D>[];
  /** The days the table lists. */
  active: D[];
  locale: string;
}) {
  const max = Math.max(1, ...days.flatMap((d) => series.map((s) => s.value(d))));
  const dayFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
  const first = days[0];
  const last = days.at(-1);
  const width = Math.max(1, days.length) * SLOT;
  const bar = (d: D, i: number, s: DaySeries<D>, offset: number) => {
    const value = s.value(d);
    if (value === 0) return null;
    const height = Math.max(2, (value / max) * (HEIGHT - 4));
    return (
      <rect
        key={`${d.date}-${s.className}`}
        className={`aff-bar ${s.className}`}
        x={i * SLOT + 1.5 + offset}
        y={HEIGHT - height}
        width={BAR}
        height={height}
        rx="1"
      >
        <title>{`${dayLabel(d.date)}: ${s.title(value)}`}</title>
      </rect>
    );
  };

  return (
    <figure className="aff-chart card">
      <figcaption className="aff-legend">{legend}</figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="aff-chart-svg"
      >
        <line className="aff-chart-base" x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((d, i) => [bar(d, i, series[0], 0), bar(d, i, series[1], BAR)])}
      </svg>
      {first && last && (
        <div className="aff-chart-axis muted" aria-hidden="true">
          <span>{dayLabel(first.date)}</span>
          <span>{dayLabel(last.date)}</span>
        </div>
      )}
      {active.length > 0 && (
        <table className="sr-only">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{dayHeader}</th>
              {columns.map((c) => (
                <th key={c.header} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {active.map((d) => (
              <tr key={d.date}>
                <td>{dayLabel(d.date)}</td>
                {columns.map((c) => (
                  <td key={c.header}>{c.cell(d)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
