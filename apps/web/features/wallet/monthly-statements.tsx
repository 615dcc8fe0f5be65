"use client";

import { STATEMENT_MONTHS_SHOWN } from "@salelink/contracts/invoices";
import { useLocale, useTranslations } from "next-intl";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";

/** This month and the ones before it, newest first, as "2026-11" and its first day (UTC). */
export function recentMonths(now: Date, count: number): { key: string; start: Date }[] {
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return { key: start.toISOString().slice(0, 7), start };
  });
}

/**
 * The creator's monthly statements (issue 22): a PDF per calendar month of sales, VAT, fees,
 * commissions and refunds. Links to the API, which renders the signed-in account's own.
 */
export function MonthlyStatements() {
  const t = useTranslations("wallet.statements");
  const locale = useLocale();
  const apiUrl = useApiUrl();
  if (apiUrl === null) return null;
  const monthName = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" });
  return (
    <section className="wallet-statements" aria-labelledby="wallet-statements-title">
      <h2 id="wallet-statements-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <ul className="wallet-statements-list" aria-label={t("label")}>
        {recentMonths(new Date(), STATEMENT_MONTHS_SHOWN).map((month) => (
          <li key={month.key}>
            <a href={`${apiUrl}/statements/${month.key}.pdf`} download>
              {t("month", { month: monthName.format(month.start) })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
