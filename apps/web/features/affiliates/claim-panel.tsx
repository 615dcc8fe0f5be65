"use client";

import type { CampaignList } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale, useTranslations } from "next-intl";
import { ClaimCard } from "./claim-card.tsx";
import { formatAmounts, hasMoney, sumAmounts } from "./money-list.ts";

/**
 * Spec section 7: POST /campaigns/claim moves everything claimable into the wallet. The amount is
 * toasted in the page's language; nothing claimable (another tab claimed first) or any failure
 * toasts 'Failed to claim.', and the figures are read again either way.
 */
export function ClaimPanel({
  list,
  defaultCurrency,
  onClaimed,
}: {
  list: CampaignList;
  defaultCurrency: Currency;
  onClaimed: () => void;
}) {
  const t = useTranslations("affiliates");
  const locale = useLocale();
  const pendingTotal = sumAmounts(list.items.map((c) => c.pending));
  const hint = hasMoney(list.claimable)
    ? t("claimHint")
    : hasMoney(pendingTotal)
      ? t("claimNothingYet", {
          pending: formatAmounts(pendingTotal, locale, defaultCurrency),
          days: list.rules.holdDays,
        })
      : t("claimNothing");
  return (
    <ClaimCard
      path="/campaigns/claim"
      id="aff-claim"
      claimable={list.claimable}
      defaultCurrency={defaultCurrency}
      words={{
        title: t("claimTitle"),
        hint,
        button: (amount) => t("claimButton", { amount }),
        buttonNone: t("claimButtonNone"),
        claiming: t("claiming"),
        done: (amount) => t("claimDone", { amount }),
        failed: t("claimFailed"),
      }}
      onClaimed={onClaimed}
    />
  );
}
