"use client";

import { quarterOf, type VatOssReport, vatOssReportSchema } from "@salelink/contracts/invoices";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { useApiUrl } from "@/components/ui/use-runtime-config.ts";
import { formatRate } from "@/features/invoices/invoice-links.tsx";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Quarters offered: this one and the seven before it, newest first. */
const QUARTERS_SHOWN = 8;

export function recentQuarters(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    quarterOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3 * i, 1))),
  );
}

/**
 * The One-Stop Shop figures of a quarter (issue 22): per member state, rate and currency, the
 * taxable amount and the VAT, checked against the ledger; the current quarter first, and the CSV
 * for the return (the API audits its download).
 */
export function VatOss() {
  const t = useTranslations("adminOps.vat");
  const apiUrl = useApiUrl();
  const quarters = recentQuarters(new Date(), QUARTERS_SHOWN);
  const [quarter, setQuarter] = useState(quarters[0] ?? quarterOf(new Date()));
  const {
    data: report,
    failed,
    reload,
  } = useApiQuery(queryKeys.admin.vat(quarter), `/admin/vat/oss?quarter=${quarter}`, vatOssReportSchema);

  return (
    <section className="admin-vat">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <div className="admin-vat-bar">
        <div className="field admin-select-filter">
          <label htmlFor="vat-quarter">{t("quarter")}</label>
          <select id="vat-quarter" value={quarter} onChange={(event) => setQuarter(event.target.value)}>
            {quarters.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </div>
        {apiUrl !== null && (
          <a className="btn btn-ghost btn-sm" href={`${apiUrl}/admin/vat/oss.csv?quarter=${quarter}`}>
            {t("downloadCsv")}
          </a>
        )}
      </div>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : report === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : (
        <VatTable report={report} />
      )}
    </section>
  );
}

function VatTable({ report }: { report: VatOssReport }) {
  const t = useTranslations("adminOps.vat");
  const locale = useLocale();
  const ledger = new Map(report.ledger.map((c) => [`${c.country}:${c.currency}`, c]));
  const country = new Intl.DisplayNames([locale], { type: "region" });
  return (
    <>
      <p role="status" className={report.matches ? "notice" : "notice field-error"}>
        {report.matches ? t("matches") : t("differs")}
      </p>
      {report.rows.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <div className="admin-vat-table">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("country")}</th>
                <th scope="col">{t("rate")}</th>
                <th scope="col">{t("currency")}</th>
                <th scope="col">{t("taxable")}</th>
                <th scope="col">{t("vatAmount")}</th>
                <th scope="col">{t("documents")}</th>
                <th scope="col">{t("ledger")}</th>
                <th scope="col">{t("check")}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => {
                const check = ledger.get(`${row.country}:${row.currency}`);
                return (
                  <tr key={`${row.country}:${row.rateBps}:${row.currency}`}>
                    <th scope="row">
                      {country.of(row.country) ?? row.country} ({row.country})
                    </th>
                    <td>{formatRate(row.rateBps, locale)}</td>
                    <td>{row.currency}</td>
                    <td>{formatMoney(row.taxableMinor, row.currency, locale)}</td>
                    <td>{formatMoney(row.vatMinor, row.currency, locale)}</td>
                    <td>{row.documents}</td>
                    <td>{check ? formatMoney(check.ledgerVatMinor, row.currency, locale) : "—"}</td>
                    <td>{check?.matches ? t("yes") : t("no")}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
