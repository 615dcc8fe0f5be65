"use client";

import { type AdminOverview, adminOverviewSchema } from "@salelink/contracts/admin-accounts";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { OverviewChart } from "./overview-chart.tsx";
import "./overview.css";

/** The period the overview covers (the issue asks for the last month). */
const DAYS = 30;

/** The business at a glance for the last 30 days, and what waits for an operator now. */
export function Overview() {
  const t = useTranslations("adminOverview.overview");
  const locale = useLocale();
  const { data, failed, reload } = useApiQuery(
    queryKeys.admin.overview,
    `/admin/overview?days=${DAYS}`,
    adminOverviewSchema,
  );

  const money = (rows: { currency: string; amount: number }[]) =>
    new Intl.ListFormat(locale, { type: "unit" }).format(
      rows.map((r) => formatMoney(r.amount, r.currency, locale)),
    );

  return (
    <section className="admin-console admin-overview">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro", { days: DAYS })}</p>
      {failed ? (
        <div className="card admin-overview-failed">
          <p className="field-error" role="alert">
            {t("loadFailed")}
          </p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={reload}>
            {t("retry")}
          </button>
        </div>
      ) : data === null ? (
        <p aria-busy="true">{t("loading")}</p>
      ) : (
        <Figures data={data} money={money} />
      )}
    </section>
  );
}

function Figures({
  data,
  money,
}: {
  data: AdminOverview;
  money: (rows: { currency: string; amount: number }[]) => string;
}) {
  const t = useTranslations("adminOverview.overview");
  const { totals } = data;
  const salesCount = totals.sales.reduce((sum, s) => sum + s.count, 0);
  const payoutCount = totals.pendingPayouts.reduce((sum, p) => sum + p.count, 0);
  const salesDays = data.daily.map((d) => ({
    date: d.date,
    value: d.sales.reduce((sum, s) => sum + s.count, 0),
    detail: money(d.sales.map((s) => ({ currency: s.currency, amount: s.gross }))),
  }));
  const accountDays = data.daily.map((d) => ({ date: d.date, value: d.newAccounts }));
  const newAccounts = accountDays.reduce((sum, d) => sum + d.value, 0);

  return (
    <>
      <h2 className="admin-overview-heading">{t("periodHeading", { days: data.days })}</h2>
      <div className="admin-stats">
        <Stat title={t("sales")} value={String(salesCount)}>
          <Lines
            rows={totals.sales.map((s) => ({ currency: s.currency, amount: s.gross }))}
            empty={t("noMoney")}
            money={money}
            label={t("gross")}
          />
        </Stat>
        <Stat title={t("fees")} value={null}>
          <Lines rows={totals.fees} empty={t("noMoney")} money={money} />
        </Stat>
        <Stat title={t("newAccounts")} value={String(totals.newAccounts)} />
      </div>
      <h2 className="admin-overview-heading">{t("waitingHeading")}</h2>
      <div className="admin-stats">
        <Stat title={t("pendingPayouts")} value={String(payoutCount)} attention={payoutCount > 0}>
          {totals.pendingPayouts.length > 0 && (
            <Lines rows={totals.pendingPayouts} empty={t("noMoney")} money={money} />
          )}
          <Link href="/admin/payouts">{t("reviewPayouts")}</Link>
        </Stat>
        <Stat title={t("openReports")} value={String(totals.openReports)} attention={totals.openReports > 0}>
          <Link href="/admin/reports">{t("reviewReports")}</Link>
        </Stat>
        <Stat
          title={t("identityAwaiting")}
          value={String(totals.identityAwaiting)}
          attention={totals.identityAwaiting > 0}
        >
          <Link href="/admin/identity">{t("reviewIdentity")}</Link>
        </Stat>
      </div>
      <h2 className="admin-overview-heading">{t("chartsHeading")}</h2>
      <div className="admin-charts">
        <OverviewChart
          title={t("salesChart")}
          unit={t("salesChartUnit")}
          summary={t("salesChartSummary", { count: salesCount, days: data.days })}
          days={salesDays}
          texts={{ table: t("showFigures"), day: t("day"), value: t("salesCount"), detail: t("gross") }}
        />
        <OverviewChart
          title={t("accountsChart")}
          unit={t("accountsChartUnit")}
          summary={t("accountsChartSummary", { count: newAccounts, days: data.days })}
          days={accountDays}
          texts={{ table: t("showFigures"), day: t("day"), value: t("accountsCount") }}
        />
      </div>
    </>
  );
}

/** One figure: a big value (or lines of amounts), with what to do about it below. */
function Stat({
  title,
  value,
  attention = false,
  children,
}: {
  title: string;
  value: string | null;
  attention?: boolean;
  children?: ReactNode;
}) {
  return (
    <article className="card admin-stat" data-attention={attention}>
      <h3>{title}</h3>
      {value !== null && <p className="admin-stat-value">{value}</p>}
      {children}
    </article>
  );
}

/** Amounts per currency, one a line: currencies are never added together. */
function Lines({
  rows,
  empty,
  money,
  label,
}: {
  rows: { currency: string; amount: number }[];
  empty: string;
  money: (rows: { currency: string; amount: number }[]) => string;
  label?: string;
}) {
  if (rows.length === 0) return <p className="muted admin-stat-hint">{empty}</p>;
  return (
    <p className="admin-stat-lines">
      {label && <span className="muted admin-stat-hint">{label}</span>}
      {rows.map((r) => (
        <span key={r.currency}>{money([r])}</span>
      ))}
    </p>
  );
}
