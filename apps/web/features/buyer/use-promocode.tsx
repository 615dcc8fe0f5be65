"use client";

import type { QuoteResponse } from "@salelink/contracts/catalogue";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { fetchQuote } from "./quote.ts";

/**
 * The spec's "use promocode": the price, a code field that asks the API for a quote, the discounted
 * total, and the Buy link carrying the applied code to checkout. The only client code of the page.
 * `checkout` is the payment page in the buyer's area (lib/buyer-paths.ts), built by the server.
 */
export function UsePromocode({
  token,
  checkout,
  priceMinor,
  currency,
}: {
  token: string;
  checkout: string;
  priceMinor: number;
  currency: string;
}) {
  const t = useTranslations("buyer");
  const locale = useLocale();
  const [quote, setQuote] = useState<QuoteResponse | null>(null);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [code, setCode] = useState("");
  const price = (minor: number) => formatMoney(minor, quote?.currency ?? currency, locale);
  const applied = quote?.promoCode;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const promoCode = code.trim();
    if (!promoCode) {
      setError(t("promoRequired"));
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      const answer = await fetchQuote(token, promoCode);
      if (answer.promoCode) {
        setQuote(answer);
        setCode("");
      } else {
        setError(t("promoInvalid"));
      }
    } catch (err) {
      // The API explains a refused code (400) or too many wrong ones (429) in the page's language
      // (lib/api.ts sends x-locale), in the one error format.
      setError(err instanceof ApiError && err.body ? err.body.message : t("promoFailed"));
    } finally {
      setPending(false);
    }
  }

  function remove() {
    setQuote(null);
    setError(undefined);
  }

  const buy = applied ? `${checkout}?promo=${encodeURIComponent(applied.code)}` : checkout;

  return (
    <div className="purchase">
      <div className="purchase-price" aria-live="polite">
        {applied && quote ? (
          <>
            <p className="price-line">
              <span className="sr-only">{t("originalPrice")}</span>
              <s className="price-old" data-testid="price-old">
                {price(quote.price)}
              </s>{" "}
              <span className="sr-only">{t("priceWithCode")}</span>
              <strong className="price" data-testid="price">
                {price(quote.total)}
              </strong>
            </p>
            <p className="discount-line">
              {applied.kind === "percent"
                ? t("discountPercent", { code: applied.code, percent: applied.value })
                : t("discountFixed", { code: applied.code })}{" "}
              <span className="discount-amount">−{price(quote.discount)}</span>
            </p>
          </>
        ) : (
          <p className="price-line">
            <strong className="price" data-testid="price">
              {price(priceMinor)}
            </strong>
          </p>
        )}
      </div>

      <a className="btn btn-primary btn-lg buy-button" href={buy}>
        {t("buy")}
      </a>

      {applied ? (
        <p className="promo-applied">
          <span>{t("promoApplied", { code: applied.code })}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={remove}>
            {t("promoRemove")}
          </button>
        </p>
      ) : (
        <form className="promo-form" onSubmit={onSubmit} noValidate>
          <Field
            name="promoCode"
            label={t("promoLabel")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
          />
          <SubmitButton
            pending={pending}
            pendingLabel={t("promoApplying")}
            label={t("promoApply")}
            variant="ghost"
          />
        </form>
      )}
    </div>
  );
}
