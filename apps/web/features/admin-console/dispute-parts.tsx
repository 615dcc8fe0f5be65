"use client";

import type { AdminDisputeList } from "@salelink/contracts/disputes";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";

/** A dispute of the list with its creator's dispute rate over 90 days (null: not in the page's rates). */
export type ListedDispute = AdminDisputeList["items"][number] & {
  rate: AdminDisputeList["rates"][number] | null;
};
export type DecidedDispute = "won" | "lost";

/**
 * The sandbox's bank's controls (issue 32): an operator plays the buyer's bank deciding a dispute of
 * the sandbox. Labelled as the sandbox's: nothing a real bank would ever offer.
 */
export function SandboxDecision({
  waiting,
  busy,
  onDecide,
}: {
  /** Asked: the decision is on its way through the sandbox's event. */
  waiting: boolean;
  busy: boolean;
  onDecide: (outcome: DecidedDispute) => void;
}) {
  const t = useTranslations("adminOps.disputes.sandbox");
  return (
    <fieldset className="admin-sandbox-decision">
      <legend className="admin-sandbox-label">
        <span className="admin-sandbox-badge">{t("badge")}</span> {t("label")}
      </legend>
      <p className="muted admin-sandbox-hint">{t("hint")}</p>
      {waiting ? (
        <p className="muted" role="status" aria-busy="true">
          {t("waiting")}
        </p>
      ) : (
        <div className="actions">
          {(["won", "lost"] as const).map((outcome) => (
            <button
              key={outcome}
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy}
              aria-busy={busy}
              onClick={() => onDecide(outcome)}
            >
              {t(outcome)}
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** Each creator listed, once: their sales and disputes over 90 days and the rate. */
export function DisputeRates({ items }: { items: ListedDispute[] }) {
  const t = useTranslations("adminOps.disputes.rates");
  const locale = useLocale();
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const seen = new Set<string>();
  const rows = items.flatMap((d) => {
    if (d.rate === null || seen.has(d.rate.creatorId)) return [];
    seen.add(d.rate.creatorId);
    return [{ ...d.rate, email: d.rate.email || d.creator.email }];
  });
  if (rows.length === 0) return null;
  return (
    <section className="admin-dispute-rates" aria-labelledby="dispute-rates-title">
      <h2 id="dispute-rates-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <div className="card admin-table-wrap">
        <table className="admin-table" aria-labelledby="dispute-rates-title">
          <thead>
            <tr>
              <th scope="col">{t("creator")}</th>
              <th scope="col" className="num">
                {t("sales")}
              </th>
              <th scope="col" className="num">
                {t("disputes")}
              </th>
              <th scope="col" className="num">
                {t("rate")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.creatorId}>
                <td>
                  <Link href={`/admin/accounts/${row.creatorId}`}>{row.email}</Link>
                </td>
                <td className="num">{row.sales}</td>
                <td className="num">{row.disputes}</td>
                <td className="num">
                  {row.rateBps === null ? t("noSales") : percent.format(row.rateBps / 10_000)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
