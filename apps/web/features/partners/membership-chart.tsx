"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import type { PartnerDay } from "@salelink/contracts/partner-sales";
import { useLocale, useTranslations } from "next-intl";
import { DayBars } from "@/components/ui/day-bars.tsx";
import { formatAmounts } from "@/features/affiliates/money-list.ts";

/**
 * Clicks and sales per day over the chosen period, drawn as the affiliates' chart is (DayBars); the
 * API answers every day of the period, zeros included.
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
  const clicks = days.reduce((sum, d) => sum + d.clicks, 0);
  const sales = days.reduce((sum, d) => sum + d.sales, 0);
  const active = days.filter((d) => d.clicks + d.sales > 0 || d.commission.some((c) => c.amount !== 0));
  return (
    <DayBars
      days={days}
      series={[
        {
          className: "aff-bar-clicks",
          value: (d) => d.clicks,
          title: (count) => t("chartClicks", { count }),
        },
        // The affiliates' second colour.
        { className: "aff-bar-signups", value: (d) => d.sales, title: (count) => t("chartSales", { count }) },
      ]}
      legend={
        <>
          <span className="aff-key aff-key-clicks">{t("chartClicks", { count: clicks })}</span>
          <span className="aff-key aff-key-signups">{t("chartSales", { count: sales })}</span>
        </>
      }
      summary={t("chartSummary", { clicks, sales, days: period })}
      caption={t("chartTable")}
      dayHeader={t("day")}
      columns={[
        { header: t("clicks"), cell: (d) => d.clicks },
        { header: t("sales"), cell: (d) => d.sales },
        { header: t("commission"), cell: (d) => formatAmounts(d.commission, locale, defaultCurrency) },
      ]}
      active={active}
      locale={locale}
    />
  );
}
