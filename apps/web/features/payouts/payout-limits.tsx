"use client";

import { payoutCountries } from "@salelink/contracts/countries";
import type { PayoutBlocker, PayoutEligibility } from "@salelink/contracts/payouts";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money.ts";
import { owedAmounts } from "./debt-notice.tsx";
import { payoutCurrencies } from "./payout-currencies.ts";

/** What applies to every payout, and why: the rules the API enforces, with their figures. */
export function PayoutLimits({ eligibility }: { eligibility: PayoutEligibility }) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const { preferred } = payoutCurrencies(eligibility);
  const regions = new Intl.DisplayNames([locale], { type: "region" });
  const countryNames = payoutCountries
    .map((code) => regions.of(code) ?? code)
    .sort((a, b) => a.localeCompare(b, locale));
  const rules: { id: string; what: string; why: ReactNode }[] = [
    {
      id: "minimum",
      what: t("limitMinimum", { minimum: formatMoney(eligibility.minimum, preferred, locale) }),
      why: t("limitMinimumWhy"),
    },
    { id: "one", what: t("limitOneOpen"), why: t("limitOneOpenWhy") },
    { id: "checks", what: t("limitChecks"), why: t("limitChecksWhy") },
    {
      id: "iban",
      what: t("limitIban", { count: payoutCountries.length }),
      why: (
        <details className="payout-countries">
          <summary>{t("limitIbanCountries")}</summary>
          <p>{new Intl.ListFormat(locale, { type: "conjunction" }).format(countryNames)}</p>
        </details>
      ),
    },
    {
      id: "provider",
      what:
        eligibility.provider === "stripe"
          ? t("limitProviderStripe")
          : eligibility.provider === "sandbox"
            ? t("limitProviderSandbox")
            : t("limitProviderManual"),
      why: t("limitProviderWhy"),
    },
  ];
  return (
    <aside className="card payout-limits" aria-labelledby="payout-limits-title">
      <h3 id="payout-limits-title">{t("limitsTitle")}</h3>
      <ul>
        {rules.map((rule) => (
          <li key={rule.id}>
            <strong>{rule.what}</strong>
            <span className="muted">{rule.why}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/** Each blocker in the order it is to be done, with what to do about it. */
export function NextSteps({
  eligibility,
  onAddBankAccount,
}: {
  eligibility: PayoutEligibility;
  onAddBankAccount: () => void;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const money = (minor: number, currency: Parameters<typeof formatMoney>[1]) =>
    formatMoney(minor, currency, locale);
  const { preferred, balance } = payoutCurrencies(eligibility);
  const open = eligibility.openPayout;

  const step = (blocker: PayoutBlocker): { text: string; action: ReactNode } => {
    switch (blocker) {
      case "onboarding":
        return {
          text: t("blockers.onboarding"),
          action: <Link href="/account/onboarding">{t("blockers.onboardingAction")}</Link>,
        };
      case "identity":
        return {
          text: t("blockers.identity"),
          action: <a href="#identity">{t("blockers.identityAction")}</a>,
        };
      case "bank_account":
        return {
          text: t("blockers.bankAccount"),
          action: (
            <button type="button" className="payout-link-button" onClick={onAddBankAccount}>
              {t("blockers.bankAccountAction")}
            </button>
          ),
        };
      case "debt":
        return {
          text:
            eligibility.debts.length > 0
              ? t("blockers.debt", { amount: owedAmounts(eligibility.debts, locale) })
              : t("blockers.debtUnknown"),
          action: <a href="#payout-debt">{t("blockers.debtAction")}</a>,
        };
      case "open_payout":
        return {
          text: open
            ? t("blockers.openPayout", {
                amount: money(open.amount, open.currency),
                status: t(`status.${open.status}`),
              })
            : t("blockers.openPayoutUnknown"),
          action: t("blockers.openPayoutAction"),
        };
      case "below_minimum":
        return {
          text: t("blockers.belowMinimum", {
            available: money(balance, preferred),
            minimum: money(eligibility.minimum, preferred),
          }),
          action: t("blockers.belowMinimumAction", {
            missing: money(Math.max(0, eligibility.minimum - balance), preferred),
          }),
        };
    }
  };

  return (
    <div className="payout-steps" id="payout-blockers">
      <p>
        <strong>{t("blockersTitle")}</strong>
      </p>
      <ol>
        {eligibility.blockers.map((blocker) => {
          const { text, action } = step(blocker);
          return (
            <li key={blocker}>
              <span>{text}</span> <span className="payout-step-action">{action}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
