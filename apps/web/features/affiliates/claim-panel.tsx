"use client";

import { type CampaignList, claimResponseSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
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
  const [pending, setPending] = useState(false);
  const claimable = hasMoney(list.claimable);
  const total = formatAmounts(list.claimable, locale, defaultCurrency);
  const pendingTotal = sumAmounts(list.items.map((c) => c.pending));

  async function claim() {
    setPending(true);
    try {
      const result = await api("/campaigns/claim", { method: "POST", schema: claimResponseSchema });
      const amounts = result.claims.length > 0 ? result.claims : [result];
      toast.success(
        t("claimDone", {
          amount: new Intl.ListFormat(locale, { type: "unit" }).format(
            amounts.map((a) => formatMoney(a.amount, a.currency, locale)),
          ),
        }),
      );
    } catch {
      toast.error(t("claimFailed"));
    } finally {
      setPending(false);
      onClaimed();
    }
  }

  return (
    <section className="aff-claim card" aria-labelledby="aff-claim-title">
      <div>
        <h2 id="aff-claim-title">{t("claimTitle")}</h2>
        <p className="aff-claim-amount">{total}</p>
        <p className="muted aff-hint" id="aff-claim-hint">
          {claimable
            ? t("claimHint")
            : hasMoney(pendingTotal)
              ? t("claimNothingYet", {
                  pending: formatAmounts(pendingTotal, locale, defaultCurrency),
                  days: list.rules.holdDays,
                })
              : t("claimNothing")}
        </p>
      </div>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!claimable || pending}
        aria-busy={pending}
        aria-describedby="aff-claim-hint"
        onClick={claim}
      >
        {pending ? t("claiming") : claimable ? t("claimButton", { amount: total }) : t("claimButtonNone")}
      </button>
    </section>
  );
}
