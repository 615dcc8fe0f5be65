"use client";

import type { DisputeView } from "@salelink/contracts/disputes";
import { type RefundView, type SaleView, saleViewSchema } from "@salelink/contracts/refunds";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { DetailStates } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { RefundDialog } from "./refund-dialog.tsx";
import { SaleDisputes } from "./sale-disputes.tsx";
import { SaleFigures } from "./sale-figures.tsx";
import { type RefundBlock, refundBlock, refundUnderWay, salePollInterval } from "./sale-state.ts";

/**
 * /account/sales/{id}: one of the creator's sales, its figures explained, its refunds and the refund
 * button, and the buyer's bank's disputes with their evidence (issue 32).
 * While the provider has a refund to confirm, the sale is read again every second or two.
 */
export function SalePage({ saleId }: { saleId: string }) {
  const t = useTranslations("sales");
  const locale = useLocale();
  const client = useQueryClient();
  const [refunding, setRefunding] = useState(false);
  const query = useQuery({
    queryKey: queryKeys.sale(saleId),
    queryFn: ({ signal }) => api(`/sales/${encodeURIComponent(saleId)}`, { schema: saleViewSchema, signal }),
    refetchInterval: (q) => salePollInterval(q.state.data),
  });
  const { data: sale, failed, reload } = useQueryState<SaleView>(query);
  // A malformed id (400) is as unknown as a missing one, or another creator's.
  const notFound =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);

  // A refund the provider confirmed moved money: the wallet's figures are read again when shown.
  const underWay = sale ? refundUnderWay(sale) : false;
  const wasUnderWay = useRef(underWay);
  useEffect(() => {
    if (wasUnderWay.current && !underWay) {
      for (const key of [queryKeys.wallet, queryKeys.salesSummary, queryKeys.transactions])
        void client.invalidateQueries({ queryKey: key });
    }
    wasUnderWay.current = underWay;
  }, [underWay, client]);

  if (failed || sale === null) {
    return (
      <DetailStates
        className="sale-page"
        back={
          <p>
            <Link href="/account/customers">{t("back")}</Link>
          </p>
        }
        failed={failed}
        notFound={notFound}
        texts={{ notFound: t("notFound"), failed: t("loadFailed"), retry: t("retry"), loading: t("loading") }}
        onRetry={reload}
      />
    );
  }

  const money = (minor: number | null) => (minor === null ? "—" : formatMoney(minor, sale.currency, locale));
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const when = (iso: string | null) => (iso === null ? "—" : dateTime.format(new Date(iso)));
  const block = refundBlock(sale, Date.now());

  /** The note's answer is the dispute as it now stands; without one the evidence left: read the sale. */
  function noteSaved(dispute: DisputeView | null) {
    if (dispute === null) {
      void client.invalidateQueries({ queryKey: queryKeys.sale(saleId) });
      return;
    }
    client.setQueryData<SaleView>(queryKeys.sale(saleId), (now) =>
      now ? { ...now, disputes: now.disputes.map((d) => (d.id === dispute.id ? dispute : d)) } : now,
    );
  }

  return (
    <section className="sale-page">
      <p>
        <Link href="/account/customers">{t("back")}</Link>
      </p>
      <h1>{t("title", { title: sale.linkTitle })}</h1>
      <p className="muted">{t("soldTo", { buyer: sale.buyerEmail, date: when(sale.paidAt) })}</p>

      <SaleFigures sale={sale} money={money} when={when} />

      <section className="sale-section" aria-labelledby="sale-refund-title-section">
        <h2 id="sale-refund-title-section">{t("refundTitle")}</h2>
        {block === null ? (
          <div className="sale-refund-open">
            <p>
              {t("refundable", {
                amount: money(sale.refundableMinor),
                date: when(sale.refundableUntil),
              })}
            </p>
            <button type="button" className="btn btn-danger" onClick={() => setRefunding(true)}>
              {t("refundButton")}
            </button>
          </div>
        ) : block.reason === "disputed" ? (
          // The button stays in its place, closed, and says why: the bank decides first.
          <div className="sale-refund-open">
            <p id="sale-refund-why" className="notice" role="status" data-testid="refund-block">
              {t("blocked.disputed")} <a href="#sale-disputes">{t("blocked.disputedLink")}</a>
            </p>
            <button type="button" className="btn btn-danger" disabled aria-describedby="sale-refund-why">
              {t("refundButton")}
            </button>
          </div>
        ) : (
          <p className="notice" role="status" data-testid="refund-block">
            {blockText(t, block, when)}
          </p>
        )}
      </section>

      <section className="sale-section" aria-labelledby="sale-refunds-title">
        <h2 id="sale-refunds-title">{t("refundsTitle")}</h2>
        {sale.refunds.length === 0 ? (
          <p className="muted">{t("noRefunds")}</p>
        ) : (
          <div className="card sale-table-wrap">
            <table className="sale-refunds">
              <thead>
                <tr>
                  <th scope="col">{t("refundAmount")}</th>
                  <th scope="col">{t("refundReason")}</th>
                  <th scope="col">{t("refundBy")}</th>
                  <th scope="col">{t("refundStatus")}</th>
                  <th scope="col">{t("refundAsked")}</th>
                  <th scope="col">{t("refundSettled")}</th>
                </tr>
              </thead>
              <tbody>
                {sale.refunds.map((refund) => (
                  <RefundRow key={refund.id} refund={refund} money={money} when={when} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <SaleDisputes sale={sale} money={money} when={when} onNoteSaved={noteSaved} />

      {refunding && (
        <RefundDialog
          sale={sale}
          onClose={() => setRefunding(false)}
          onChanged={() => void client.invalidateQueries({ queryKey: queryKeys.sale(saleId) })}
        />
      )}
    </section>
  );
}

type Translate = ReturnType<typeof useTranslations<"sales">>;

function blockText(t: Translate, block: RefundBlock, when: (iso: string) => string): string {
  switch (block.reason) {
    case "windowOver":
      return t("blocked.windowOver", { date: when(block.until) });
    default:
      return t(`blocked.${block.reason}`);
  }
}

function RefundRow({
  refund,
  money,
  when,
}: {
  refund: RefundView;
  money: (minor: number) => string;
  when: (iso: string | null) => string;
}) {
  const t = useTranslations("sales");
  return (
    <tr>
      <td>{money(refund.amountMinor)}</td>
      <td className="sale-refund-reason">{refund.reason}</td>
      <td>{t(`by.${refund.by}`)}</td>
      <td>
        <span
          className={`sale-refund-status sale-refund-${refund.status}`}
          aria-busy={refund.status === "asked"}
        >
          {t(`refundStatuses.${refund.status}`)}
        </span>
        {refund.failure && <small className="field-error">{refund.failure}</small>}
      </td>
      <td>{when(refund.createdAt)}</td>
      <td>{when(refund.settledAt)}</td>
    </tr>
  );
}
