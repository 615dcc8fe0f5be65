"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { type Wallet, walletHeldShown } from "@salelink/contracts/wallet";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { formatMoney } from "@/lib/money.ts";

type Balance = Wallet["balances"][number];

const zero = (currency: Currency): Balance => ({
  currency,
  pending: 0,
  available: 0,
  inTransit: 0,
  affiliatePending: 0,
  affiliateClaimable: 0,
  partnerPending: 0,
  partnerClaimable: 0,
  debt: 0,
});

/** One card per currency; before any money moved, the default currency at zero. */
export function Balances({ wallet, defaultCurrency }: { wallet: Wallet; defaultCurrency: Currency }) {
  const t = useTranslations("wallet");
  const locale = useLocale();
  const balances = wallet.balances.length > 0 ? wallet.balances : [zero(defaultCurrency)];
  const money = (minor: number, currency: Currency) => formatMoney(minor, currency, locale);
  return (
    <section className="wallet-section" aria-labelledby="wallet-balances">
      <h2 id="wallet-balances">{t("balances")}</h2>
      <ul className="balance-list">
        {balances.map((b) => (
          <li
            key={b.currency}
            className="card balance-card"
            aria-label={t("balancesIn", { currency: b.currency })}
          >
            <dl className="balance-facts">
              <div className="balance-main">
                <dt>{t("available")}</dt>
                <dd className="balance-amount">{money(b.available, b.currency)}</dd>
                <dd className="muted balance-hint">{t("availableHint")}</dd>
              </div>
              {/* Issue 32: a refund or a chargeback that found the money paid out; repaid first. */}
              {b.debt < 0 && (
                <div className="balance-debt">
                  <dt>{t("debt")}</dt>
                  <dd className="balance-amount">{money(-b.debt, b.currency)}</dd>
                  <dd className="balance-hint">
                    {t("debtHint")} <Link href="/account/payouts#payout-debt">{t("debtLink")}</Link>
                  </dd>
                </div>
              )}
              <div>
                <dt>{t("pending")}</dt>
                <dd className="balance-amount">{money(b.pending, b.currency)}</dd>
                <dd className="muted balance-hint">{t("pendingHint", { days: wallet.holdDays })}</dd>
              </div>
              <div>
                <dt>{t("inTransit")}</dt>
                <dd className="balance-amount">{money(b.inTransit, b.currency)}</dd>
                <dd className="muted balance-hint">{t("inTransitHint")}</dd>
              </div>
              <div>
                <dt>{t("affiliate")}</dt>
                <dd>
                  {t("affiliatePending")} <strong>{money(b.affiliatePending, b.currency)}</strong>
                </dd>
                <dd>
                  {t("affiliateClaimable")} <strong>{money(b.affiliateClaimable, b.currency)}</strong>
                </dd>
              </div>
              {/* Creators' partner programmes (issue 20): shown only to those who earn there. */}
              {(b.partnerPending !== 0 || b.partnerClaimable !== 0) && (
                <div>
                  <dt>{t("partner")}</dt>
                  {b.partnerPending !== 0 && (
                    <dd>
                      {t("partnerPending")} <strong>{money(b.partnerPending, b.currency)}</strong>
                    </dd>
                  )}
                  {b.partnerClaimable !== 0 && (
                    <dd>
                      {t("partnerClaimable")} <strong>{money(b.partnerClaimable, b.currency)}</strong>{" "}
                      <Link href="/account/programmes">{t("partnerClaim")}</Link>
                    </dd>
                  )}
                </div>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The sales still in their refund window: how much, until when, and why. */
export function HeldSales({ wallet }: { wallet: Wallet }) {
  const t = useTranslations("wallet");
  const locale = useLocale();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "long" });
  return (
    <section className="wallet-section" aria-labelledby="wallet-held">
      <h2 id="wallet-held">{t("held")}</h2>
      <p className="muted">{t("heldIntro", { days: wallet.holdDays })}</p>
      {wallet.held.length >= walletHeldShown && (
        <p className="muted">{t("heldSoonest", { count: walletHeldShown })}</p>
      )}
      {wallet.held.length === 0 ? (
        <p className="empty">{t("heldEmpty")}</p>
      ) : (
        <ul className="held-list" aria-labelledby="wallet-held">
          {wallet.held.map((h) => (
            <li key={h.orderId} className="card held-item" aria-label={h.title}>
              <div className="held-what">
                <strong className="held-title">{h.title}</strong>
                <span className="muted">{t("heldReason", { days: wallet.holdDays })}</span>
              </div>
              <div className="held-money">
                <strong className="held-amount">{formatMoney(h.amount, h.currency, locale)}</strong>
                <time dateTime={h.availableAt}>
                  {t("heldUntil", { date: day.format(new Date(h.availableAt)) })}
                </time>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
