"use client";

import type { DebtSummary } from "@salelink/contracts/payouts";
import Link from "next/link";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { formatMoney } from "@/lib/money.ts";

/**
 * What the account owes (issue 32, decision 042), at the top of the payouts page while anything is:
 * per currency how much, since when and from what; that it is repaid first from the next sales and
 * that no payout leaves until then; and what to do if it looks wrong.
 */
export function DebtNotice({ debts }: { debts: DebtSummary[] }) {
  const t = useTranslations("payouts.debt");
  const locale = useLocale();
  const format = useFormatter();
  if (debts.length === 0) return null;
  const causes = new Intl.ListFormat(locale, { type: "conjunction" });
  return (
    <section id="payout-debt" className="card payout-debt" aria-labelledby="payout-debt-title">
      <h2 id="payout-debt-title">{t("title")}</h2>
      <ul className="payout-debt-list">
        {debts.map((debt) => (
          <li key={debt.currency}>
            <strong>{t("owed", { amount: formatMoney(debt.amount, debt.currency, locale) })}</strong>{" "}
            {t("since", {
              date: format.dateTime(new Date(debt.since), { dateStyle: "long" }),
              causes: causes.format(debt.causes.map((cause) => t(`causes.${cause}`))),
            })}
          </li>
        ))}
      </ul>
      <p className="payout-debt-text">{t("repaid")}</p>
      <p className="muted payout-debt-text">
        {t("wrong")} <Link href="/account/wallet">{t("movements")}</Link>
      </p>
    </section>
  );
}

/** "€9.00 and £3.00": every amount owed, for a sentence. */
export function owedAmounts(debts: DebtSummary[], locale: string): string {
  return new Intl.ListFormat(locale, { type: "conjunction" }).format(
    debts.map((debt) => formatMoney(debt.amount, debt.currency, locale)),
  );
}
