"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import type { BankAccount, PayoutEligibility } from "@salelink/contracts/payouts";
import { walletSchema } from "@salelink/contracts/wallet";
import { useLocale, useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * One card per currency (issue 23): what is available and on its way, what is owed (issue 32), the
 * bank account that takes that currency or the way to add one ("Add an account in GBP"), and what
 * keeps that currency from a withdrawal. Each payout is in one currency, to an account paid in it.
 */
export function PayoutBalances({
  defaultCurrency,
  accounts,
  perCurrency,
  onAddAccount,
}: {
  defaultCurrency: Currency;
  /** null while loading. */
  accounts: BankAccount[] | null;
  /** What keeps each currency from a withdrawal (GET /profile/payout); null while loading. */
  perCurrency: PayoutEligibility["perCurrency"] | null;
  onAddAccount: (currency: Currency) => void;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const wallet = useApiQuery(queryKeys.wallet, "/wallet", walletSchema);
  const money = (minor: number, currency: Currency) => formatMoney(minor, currency, locale);

  return (
    <section className="wallet-section" aria-labelledby="payout-balances-title">
      <h2 id="payout-balances-title">{t("balancesTitle")}</h2>
      {wallet.failed ? (
        <LoadFailed message={t("balancesLoadFailed")} retry={t("retry")} onRetry={wallet.reload} />
      ) : wallet.data === null ? (
        <p aria-busy="true" className="muted loading">
          {t("balancesLoading")}
        </p>
      ) : (
        <ul className="balance-list">
          {(wallet.data.balances.length > 0
            ? wallet.data.balances
            : [{ currency: defaultCurrency, available: 0, inTransit: 0, pending: 0, debt: 0 }]
          ).map((b) => {
            const taking = accounts?.filter((a) => a.currency === b.currency) ?? [];
            const blockers = perCurrency?.find((c) => c.currency === b.currency)?.blockers ?? [];
            return (
              <li
                key={b.currency}
                className="card balance-card"
                aria-label={t("balancesIn", { currency: b.currency })}
              >
                <dl className="balance-facts">
                  <div className="balance-main">
                    <dt>{t("available")}</dt>
                    <dd className="balance-amount">{money(b.available, b.currency)}</dd>
                  </div>
                  <div>
                    <dt>{t("inTransit")}</dt>
                    <dd className="balance-amount">{money(b.inTransit, b.currency)}</dd>
                  </div>
                  <div>
                    <dt>{t("onHold")}</dt>
                    <dd className="balance-amount">{money(b.pending, b.currency)}</dd>
                  </div>
                  {b.debt < 0 && (
                    <div className="balance-debt">
                      <dt>{t("owed")}</dt>
                      <dd className="balance-amount">{money(-b.debt, b.currency)}</dd>
                    </div>
                  )}
                  <div>
                    <dt>{t("paidTo")}</dt>
                    {accounts === null ? (
                      <dd className="muted">{t("banksLoading")}</dd>
                    ) : taking.length > 0 ? (
                      taking.map((a) => (
                        <dd key={a.id} className="bank-code">
                          {`${a.ibanMasked} · ${a.holderName}`}
                        </dd>
                      ))
                    ) : (
                      <dd>
                        <span className="muted">{t("noAccountIn", { currency: b.currency })}</span>{" "}
                        <button
                          type="button"
                          className="payout-link-button"
                          onClick={() => onAddAccount(b.currency)}
                        >
                          {t("addAccountIn", { currency: b.currency })}
                        </button>
                      </dd>
                    )}
                  </div>
                  {blockers.length > 0 && (
                    <div className="payout-currency-blockers">
                      <dt>{t("currencyBlockers.title")}</dt>
                      {blockers.map((blocker) => (
                        <dd key={blocker}>{t(`currencyBlockers.${blocker}`, { currency: b.currency })}</dd>
                      ))}
                    </div>
                  )}
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
