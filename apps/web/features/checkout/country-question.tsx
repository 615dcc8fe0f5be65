"use client";

import { countryName } from "@salelink/contracts/iso-countries";
import { useLocale, useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef } from "react";

/** The two countries of a payment's VAT evidence that disagree (issue 22). */
export type CountryChoice = { billing: string; card: string };
export type CountryAnswer = keyof CountryChoice;

/**
 * Asked when the card was issued in another country than the one the buyer gave: which of the two
 * they live in decides the VAT, so the payment waits for the answer. Both card forms (the sandbox's
 * and Stripe's) show this same question; the answer's country is sent with the same card again.
 */
export function CountryQuestion({
  countries,
  pending,
  onAnswer,
  badge,
  alert,
}: {
  countries: CountryChoice;
  /** The answer being sent; every button waits meanwhile. */
  pending: CountryAnswer | null;
  onAnswer: (which: CountryAnswer) => void;
  /** Shown above the question (the sandbox's test-mode badge). */
  badge?: ReactNode;
  /** A failure of the previous answer, with role=alert. */
  alert?: ReactNode;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const heading = useRef<HTMLHeadingElement>(null);
  const names = {
    billing: countryName(countries.billing, locale),
    card: countryName(countries.card, locale),
  };

  // The form the buyer was on is gone: the question takes the focus, so screen readers read it.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <div className="checkout-confirm checkout-country-question">
      {badge}
      <h3 ref={heading} tabIndex={-1}>
        {t("countryQuestionTitle")}
      </h3>
      <p>{t("countryQuestion", names)}</p>
      <p className="muted">{t("countryQuestionHelp")}</p>
      {alert}
      <div className="actions">
        {(["billing", "card"] as const).map((which) => (
          <button
            key={which}
            type="button"
            className={`btn ${which === "billing" ? "btn-primary" : "btn-ghost"}`}
            onClick={() => onAnswer(which)}
            disabled={pending !== null}
            aria-busy={pending === which}
          >
            {t("liveIn", { country: names[which] })}
          </button>
        ))}
      </div>
    </div>
  );
}
