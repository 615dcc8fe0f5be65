"use client";

import { claimResponseSchema } from "@salelink/contracts/affiliates";
import type { Currency } from "@salelink/contracts/business-rules";
import { useLocale } from "next-intl";
import { useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { type Amounts, formatAmounts, hasMoney } from "./money-list.ts";

/** The words of a claim card, in the page's language. */
export interface ClaimWords {
  title: string;
  hint: string;
  button: (amount: string) => string;
  buttonNone: string;
  claiming: string;
  done: (amount: string) => string;
  failed: string;
}

/**
 * A claim of commissions into the wallet (the platform's referrals: POST /campaigns/claim; partner
 * programmes': POST /programmes/claim): the amount claimable, one button, the amounts moved toasted
 * in the page's language, and the figures read again whatever happened.
 */
export function ClaimCard({
  path,
  id,
  claimable,
  defaultCurrency,
  words,
  apiMessageOnFailure,
  onClaimed,
}: {
  path: "/campaigns/claim" | "/programmes/claim";
  /** Prefix of the card's element ids. */
  id: string;
  claimable: Amounts;
  defaultCurrency: Currency;
  words: ClaimWords;
  /** Toast the API's own message on a refusal (else always `words.failed`, as the spec says). */
  apiMessageOnFailure?: boolean;
  onClaimed: () => void;
}) {
  const locale = useLocale();
  const [pending, setPending] = useState(false);
  const any = hasMoney(claimable);
  const total = formatAmounts(claimable, locale, defaultCurrency);

  async function claim() {
    setPending(true);
    try {
      const result = await api(path, { method: "POST", schema: claimResponseSchema });
      const amounts = result.claims.length > 0 ? result.claims : [result];
      toast.success(
        words.done(
          new Intl.ListFormat(locale, { type: "unit" }).format(
            amounts.map((a) => formatMoney(a.amount, a.currency, locale)),
          ),
        ),
      );
    } catch (err) {
      toast.error(
        apiMessageOnFailure && err instanceof ApiError && err.body ? err.body.message : words.failed,
      );
    } finally {
      setPending(false);
      onClaimed();
    }
  }

  return (
    <section className="aff-claim card" aria-labelledby={`${id}-title`}>
      <div>
        <h2 id={`${id}-title`}>{words.title}</h2>
        <p className="aff-claim-amount">{total}</p>
        <p className="muted aff-hint" id={`${id}-hint`}>
          {words.hint}
        </p>
      </div>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!any || pending}
        aria-busy={pending}
        aria-describedby={`${id}-hint`}
        onClick={claim}
      >
        {pending ? words.claiming : any ? words.button(total) : words.buttonNone}
      </button>
    </section>
  );
}
