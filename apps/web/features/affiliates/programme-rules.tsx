"use client";

import type { CampaignList } from "@salelink/contracts/affiliates";
import { useLocale, useTranslations } from "next-intl";

/** The programme's figures, as configured on the API (never literals here). */
export function ProgrammeRules({ rules }: { rules: CampaignList["rules"] }) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  // Basis points to a percentage for display only: no money goes through this.
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    rules.commissionBps / 10_000,
  );
  return (
    <section className="aff-rules card" aria-labelledby="aff-rules-title">
      <h2 id="aff-rules-title">{t("rulesTitle")}</h2>
      <dl className="aff-facts">
        <div>
          <dt>{t("rulesCommission")}</dt>
          <dd>{t("rulesCommissionValue", { percent })}</dd>
        </div>
        <div>
          <dt>{t("rulesDuration")}</dt>
          <dd>{t("rulesDurationValue", { months: rules.durationMonths })}</dd>
        </div>
        <div>
          <dt>{t("rulesHold")}</dt>
          <dd>{t("rulesHoldValue", { days: rules.holdDays })}</dd>
        </div>
        <div>
          <dt>{t("rulesAttribution")}</dt>
          <dd>{t("rulesAttributionValue", { days: rules.cookieDays })}</dd>
        </div>
        <div>
          <dt>{t("filtered")}</dt>
          <dd>{t("filteredHint", { allowance: rules.clicksPerAddress })}</dd>
        </div>
      </dl>
    </section>
  );
}
