"use client";

import { type RefundView, type SaleView, saleViewSchema } from "@salelink/contracts/refunds";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { DetailStates } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { RefundDialog } from "./refund-dialog.tsx";
import { type RefundBlock, refundBlock, refundUnderWay, saleMoney, salePollInterval } from "./sale-state.ts";

/**
 * /account/sales/{id}: one of the creator's sales, its figures and refunds, and the refund button.
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

  return (
    <section className="sale-page">
      <p>
        <Link href="/account/customers">{t("back")}</Link>
      </p>
      <h1>{t("title", { title: sale.linkTitle })}</h1>
      <p className="muted">{t("soldTo", { buyer: sale.buyerEmail, date: when(sale.paidAt) })}</p>

      <section className="sale-section" aria-labelledby="sale-figures-title">
        <h2 id="sale-figures-title">{t("figuresTitle")}</h2>
        <dl className="card sale-figures">
          <Figure term={t("paid")} value={money(sale.totalMinor)} />
          {sale.vatMinor > 0 && <Figure term={vatTerm(t, sale, locale)} value={money(sale.vatMinor)} />}
          <Figure term={t("fee")} value={money(sale.feeMinor)} />
          <Figure term={t("commission")} value={money(sale.partnerCommissionMinor)} />
          <Figure term={t("net")} value={money(sale.netMinor)} />
          <Figure term={t("refunded")} value={money(sale.refundedMinor)} />
          <Figure term={t("statusLabel")} value={t(`status.${sale.status}`)} />
          <Figure term={t("holdEnd")} value={when(sale.availableAt)} />
          <Figure term={t("refundableUntil")} value={when(sale.refundableUntil)} />
          <Figure term={t("payout.label")} value={<PayoutFigure sale={sale} when={when} />} />
        </dl>
      </section>

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

/** "VAT (20% in France)": the rate and country of the tax in the total, when the sale had any. */
function vatTerm(t: Translate, sale: SaleView, locale: string): string {
  if (sale.vatRateBps === null || sale.vatCountry === null) return t("vat");
  const rate = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    sale.vatRateBps / 10_000,
  );
  const country = new Intl.DisplayNames([locale], { type: "region" }).of(sale.vatCountry) ?? sale.vatCountry;
  return t("vatAt", { rate, country });
}

/**
 * Where the sale's net is now (issue 23): in the payout that carried it (a link to its timeline),
 * still held, or waiting in the available balance.
 */
function PayoutFigure({ sale, when }: { sale: SaleView; when: (iso: string | null) => string }) {
  const t = useTranslations("sales");
  const money = saleMoney(sale, Date.now());
  switch (money.where) {
    case "payout":
      return (
        <Link href={`/account/payouts/${money.payout.id}`}>
          {t("payout.carried", {
            date: when(money.payout.paidAt ?? money.payout.requestedAt),
            status: t(`payout.status.${money.payout.status}`),
          })}
        </Link>
      );
    case "held":
      return <>{t("payout.onHold", { date: when(money.until) })}</>;
    case "balance":
      return <>{t("payout.inBalance")}</>;
    default:
      return <>—</>;
  }
}

function Figure({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
