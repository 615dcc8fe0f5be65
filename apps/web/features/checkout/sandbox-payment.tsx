"use client";

import {
  type CheckoutResponse,
  type SandboxConfirmBody,
  type SandboxPaymentResult,
  sandboxCardCountries,
  sandboxCards,
  sandboxConfirmBodySchema,
  sandboxPaymentResultSchema,
} from "@salelink/contracts/checkout";
import { countryName } from "@salelink/contracts/iso-countries";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { type CountryAnswer, type CountryChoice, CountryQuestion } from "./country-question.tsx";
import { type BuyerArea, resultPathIn } from "./paths.ts";

type Step = "card" | "confirm" | "country" | "done";
type Pending = null | "pay" | "approve" | "refuse" | "billing" | "card";
type Errors = { card?: string; expiry?: string; cvc?: string };

const groupCard = (value: string) =>
  value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
const formatExpiry = (value: string) => {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
};

const testCards = [
  { number: sandboxCards.success, outcome: "cardSuccess" },
  { number: sandboxCards.declined, outcome: "cardDeclined" },
  { number: sandboxCards.authenticate, outcome: "cardAuthenticate" },
  // Issued in a country the sandbox reports, the VAT evidence's second piece (issue 22).
  { number: sandboxCards.successFR, outcome: "cardSuccessIn" },
  { number: sandboxCards.successDE, outcome: "cardSuccessIn" },
  { number: sandboxCards.successHU, outcome: "cardSuccessIn" },
  { number: sandboxCards.successUS, outcome: "cardSuccessIn" },
  // Pays, then the buyer's bank disputes the payment a moment later (issue 32).
  { number: sandboxCards.disputed, outcome: "cardDisputed" },
] as const;

/**
 * The sandbox provider's card form, labelled as test mode: a test card decides the outcome. A
 * declined card can be tried again on the same payment; the "authenticate" card asks for an extra
 * confirmation (like 3-D Secure), which the buyer approves or refuses. A card issued in another
 * country than the one the buyer gave asks which of the two is theirs, then pays with the answer.
 */
export function SandboxPayment({
  session,
  area,
  creatorName,
}: {
  session: CheckoutResponse;
  area: BuyerArea;
  creatorName: string;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const router = useRouter();
  const [card, setCard] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [alert, setAlert] = useState<{ title?: string; text: string } | null>(null);
  const [step, setStep] = useState<Step>("card");
  const [pending, setPending] = useState<Pending>(null);
  const [countries, setCountries] = useState<CountryChoice | null>(null);
  /** The card the question was asked for: the answer re-sends it with the country chosen. */
  const asked = useRef<SandboxConfirmBody | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  const amount = formatMoney(session.total, session.currency, locale);
  const paymentPath = `/sandbox/payments/${encodeURIComponent(session.paymentId)}`;

  useEffect(() => {
    cardRef.current?.querySelector("input")?.focus();
  }, []);
  useEffect(() => {
    if (step === "confirm") confirmRef.current?.focus();
  }, [step]);

  function fillTestCard(number: string) {
    setCard(groupCard(number));
    const year = (new Date().getFullYear() + 3) % 100;
    setExpiry(`12/${String(year).padStart(2, "0")}`);
    setCvc("123");
    setErrors({});
  }

  function settle(result: SandboxPaymentResult, refused = false) {
    if (result.status === "succeeded") {
      setStep("done");
      router.push(resultPathIn(area, "success", session.orderId));
    } else if (result.status === "requires_action") {
      setAlert(null);
      setStep("confirm");
    } else if (result.status === "needs_country" && result.countries) {
      setAlert(null);
      setCountries(result.countries);
      setStep("country");
    } else if (refused) {
      setStep("done");
      router.push(resultPathIn(area, "error", session.orderId, "authentication-failed"));
    } else {
      setStep("card");
      setAlert({ title: t("declinedTitle"), text: result.message ?? t("declinedHelp") });
    }
  }

  async function confirm(body: SandboxConfirmBody, pendingAs: Pending) {
    setAlert(null);
    setPending(pendingAs);
    try {
      settle(
        await api(`${paymentPath}/confirm`, {
          method: "POST",
          body,
          schema: sandboxPaymentResultSchema,
        }),
      );
    } catch (err) {
      setAlert({ text: failure(err) });
    } finally {
      setPending(null);
    }
  }

  function answerCountry(which: CountryAnswer) {
    if (!asked.current || !countries) return;
    const parsed = sandboxConfirmBodySchema.safeParse({ ...asked.current, country: countries[which] });
    if (!parsed.success) {
      setAlert({ text: t("payFailed") });
      return;
    }
    void confirm(parsed.data, which);
  }

  async function onPay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = sandboxConfirmBodySchema.safeParse({ card, expiry, cvc });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "card") next.card = t("cardInvalid");
        if (field === "expiry") next.expiry = t("expiryInvalid");
        if (field === "cvc") next.cvc = t("cvcInvalid");
      }
      setErrors(next);
      return;
    }
    setErrors({});
    asked.current = parsed.data;
    await confirm(parsed.data, "pay");
  }

  async function authenticate(approve: boolean) {
    setAlert(null);
    setPending(approve ? "approve" : "refuse");
    try {
      settle(
        await api(`${paymentPath}/authenticate`, {
          method: "POST",
          body: { approve },
          schema: sandboxPaymentResultSchema,
        }),
        !approve,
      );
    } catch (err) {
      setAlert({ text: failure(err) });
    } finally {
      setPending(null);
    }
  }

  const failure = (err: unknown) =>
    err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("payFailed");

  const alertBox = alert && (
    <div className="checkout-alert" role="alert">
      {alert.title && <strong>{alert.title}</strong>}
      <span>{alert.text}</span>
      {alert.title && <span>{t("declinedHelp")}</span>}
    </div>
  );

  if (step === "done") {
    return (
      <p className="checkout-redirecting" role="status">
        <span className="checkout-spinner" aria-hidden="true" />
        {t("redirecting")}
      </p>
    );
  }

  if (step === "country" && countries) {
    return (
      <CountryQuestion
        countries={countries}
        pending={pending === "billing" || pending === "card" ? pending : null}
        onAnswer={answerCountry}
        badge={<p className="checkout-sandbox-badge">{t("sandboxBadge")}</p>}
        alert={alertBox}
      />
    );
  }

  if (step === "confirm") {
    return (
      <div className="checkout-confirm">
        <p className="checkout-sandbox-badge">{t("sandboxBadge")}</p>
        <h3 ref={confirmRef} tabIndex={-1}>
          {t("confirmTitle")}
        </h3>
        <p>{t("confirmText", { amount, creator: creatorName })}</p>
        <p className="muted">{t("confirmSandbox")}</p>
        {alertBox}
        <div className="actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => authenticate(true)}
            disabled={pending !== null}
            aria-busy={pending === "approve"}
          >
            {pending === "approve" ? t("approving") : t("approve")}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => authenticate(false)}
            disabled={pending !== null}
            aria-busy={pending === "refuse"}
          >
            {pending === "refuse" ? t("refusing") : t("refuse")}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="checkout-pay">
      <section className="checkout-sandbox" aria-labelledby="sandbox-title">
        <p id="sandbox-title" className="checkout-sandbox-title">
          <span className="checkout-sandbox-badge">{t("sandboxBadge")}</span>
          {t("sandboxTitle")}
        </p>
        <p className="checkout-sandbox-text">{t("sandboxText")}</p>
        <table className="checkout-test-cards">
          <caption className="sr-only">{t("testCards")}</caption>
          <tbody>
            {testCards.map((c) => (
              <tr key={c.number}>
                <td className="checkout-test-number">{groupCard(c.number)}</td>
                <td>
                  {c.outcome === "cardSuccessIn"
                    ? t(c.outcome, { country: countryName(sandboxCardCountries[c.number] ?? "", locale) })
                    : t(c.outcome)}
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    onClick={() => fillTestCard(c.number)}
                    aria-label={t("useCard", { number: groupCard(c.number) })}
                  >
                    {t("use")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <form className="form checkout-card-form" onSubmit={onPay} noValidate>
        <div ref={cardRef}>
          <Field
            name="card"
            label={t("cardNumber")}
            autoComplete="cc-number"
            inputMode="numeric"
            placeholder="1234 1234 1234 1234"
            value={card}
            onChange={(e) => setCard(groupCard(e.currentTarget.value))}
            error={errors.card}
          />
        </div>
        <div className="checkout-card-row">
          <Field
            name="expiry"
            label={t("expiry")}
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder={t("expiryPlaceholder")}
            value={expiry}
            onChange={(e) => setExpiry(formatExpiry(e.currentTarget.value))}
            error={errors.expiry}
          />
          <Field
            name="cvc"
            label={t("cvc")}
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            placeholder="123"
            value={cvc}
            onChange={(e) => setCvc(e.currentTarget.value.replace(/\D/g, "").slice(0, 4))}
            error={errors.cvc}
          />
        </div>
        {alertBox}
        <SubmitButton pending={pending === "pay"} label={t("pay", { amount })} pendingLabel={t("paying")} />
      </form>
    </div>
  );
}
