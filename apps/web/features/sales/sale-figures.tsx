"use client";

import type { SaleView } from "@salelink/contracts/refunds";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { saleMoney } from "./sale-state.ts";

type Translate = ReturnType<typeof useTranslations<"sales">>;

/**
 * Every figure of the sale with a line saying what it is (issue 32): what the buyer paid, the VAT in
 * it, the platform's fee, a partner's commission, the creator's share, what was refunded and what a
 * chargeback took, and the refund window the buyer was shown at checkout.
 */
export function SaleFigures({
  sale,
  money,
  when,
}: {
  sale: SaleView;
  money: (minor: number | null) => string;
  when: (iso: string | null) => string;
}) {
  const t = useTranslations("sales");
  const locale = useLocale();
  const partner = sale.partnerCommissionMinor !== null && sale.partnerCommissionMinor !== 0;
  return (
    <section className="sale-section" aria-labelledby="sale-figures-title">
      <h2 id="sale-figures-title">{t("figuresTitle")}</h2>
      <p className="muted">{t("figuresIntro")}</p>
      <dl className="card sale-figures">
        <Figure term={t("paid")} value={money(sale.totalMinor)} hint={t("paidHint")} />
        {sale.vatMinor > 0 && (
          <Figure term={vatTerm(t, sale, locale)} value={money(sale.vatMinor)} hint={t("vatHint")} />
        )}
        <Figure term={t("fee")} value={money(sale.feeMinor)} hint={t("feeHint")} />
        <Figure
          term={t("commission")}
          value={money(sale.partnerCommissionMinor)}
          hint={partner ? t("commissionHint") : t("commissionNone")}
        />
        <Figure term={t("net")} value={money(sale.netMinor)} hint={t("netHint")} />
        <Figure term={t("refunded")} value={money(sale.refundedMinor)} hint={t("refundedHint")} />
        <Figure term={t("disputed")} value={money(sale.disputedMinor)} hint={t("disputedHint")} />
        <Figure
          term={t("refundWindow")}
          value={
            sale.refundWindowDays > 0
              ? t("refundWindowDays", { days: sale.refundWindowDays })
              : t("refundWindowNone")
          }
          hint={t("refundWindowHint")}
        />
        <Figure term={t("statusLabel")} value={t(`status.${sale.status}`)} />
        <Figure term={t("holdEnd")} value={when(sale.availableAt)} />
        <Figure term={t("refundableUntil")} value={when(sale.refundableUntil)} />
        <Figure term={t("payout.label")} value={<PayoutFigure sale={sale} when={when} />} />
      </dl>
    </section>
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

/** One figure: its name, its value, and what it is (not part of the value's text). */
export function Figure({ term, value, hint }: { term: string; value: ReactNode; hint?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
      {hint && <dd className="muted sale-figure-hint">{hint}</dd>}
    </div>
  );
}
