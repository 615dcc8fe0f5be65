"use client";

import {
  type CheckoutConfirmBody,
  type CheckoutConfirmResult,
  type CheckoutResponse,
  type CheckoutVat,
  checkoutConfirmBodySchema,
  checkoutConfirmResultSchema,
} from "@salelink/contracts/checkout";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { type CountryAnswer, type CountryChoice, CountryQuestion } from "./country-question.tsx";
import { type BuyerArea, resultPathIn } from "./paths.ts";

/* The few parts of Stripe.js this page uses (https://docs.stripe.com/js). */
interface StripeError {
  type?: string;
  message?: string;
}
interface StripeElement {
  mount(target: HTMLElement): void;
  destroy(): void;
  on(event: "ready", handler: () => void): void;
}
interface StripeElements {
  create(type: "payment", options?: Record<string, unknown>): StripeElement;
  /** Validates the Payment Element's fields (and collects what wallets need) before a token is made. */
  submit(): Promise<{ error?: StripeError }>;
  update(options: { amount: number }): void;
}
interface Stripe {
  /** Deferred mode: the element is shown before Stripe knows the PaymentIntent. */
  elements(options: {
    mode: "payment";
    amount: number;
    currency: string;
    appearance?: Record<string, unknown>;
  }): StripeElements;
  createConfirmationToken(options: {
    elements: StripeElements;
    params?: {
      return_url?: string;
      payment_method_data?: { billing_details?: { email?: string } };
    };
  }): Promise<{ error?: StripeError; confirmationToken?: { id: string } }>;
  handleNextAction(options: {
    clientSecret: string;
  }): Promise<{ error?: StripeError; paymentIntent?: { status: string } }>;
}
type StripeFactory = (publishableKey: string, options?: { locale?: string }) => Stripe;

const STRIPE_JS = "https://js.stripe.com/v3";
let loading: Promise<StripeFactory> | null = null;

/** Stripe.js must be loaded from Stripe's own address (never bundled); once per page. */
function loadStripe(): Promise<StripeFactory> {
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const ready = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error("Stripe.js did not load"));
    };
    const script = document.createElement("script");
    script.src = STRIPE_JS;
    script.async = true;
    script.onload = ready;
    script.onerror = () => reject(new Error("Stripe.js did not load"));
    document.head.appendChild(script);
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

type Pending = null | "pay" | "action" | CountryAnswer;
type Alert = { title?: string; text: string };

/** Stripe's own words for a card or a form it refused; anything else is our generic text. */
const stripeText = (error: StripeError | undefined): string | null =>
  error && (error.type === "card_error" || error.type === "validation_error") && error.message
    ? error.message
    : null;

/**
 * Stripe's Payment Element, with the payment confirmed by our server (decision 040): the element
 * makes a ConfirmationToken, the API reads the card's country from it (issue 22's second piece of
 * evidence), asks through us which country the buyer lives in when the two disagree, sets the amount
 * for the VAT due, and confirms. 3-D Secure comes back as `requires_action`, which Stripe.js handles.
 */
export function StripePayment({
  session,
  area,
  email,
  onCharged,
}: {
  session: CheckoutResponse;
  area: BuyerArea;
  email: string;
  /** The total and VAT the API now charges, when the card's country changed them. */
  onCharged?: (charged: { total: number; vat: CheckoutVat }) => void;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const router = useRouter();
  const target = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState<Pending>(null);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [countries, setCountries] = useState<CountryChoice | null>(null);
  const [done, setDone] = useState(false);
  const [total, setTotal] = useState(session.total);
  /** The token the country question was asked for: the answer confirms with that same card. */
  const asked = useRef<string | null>(null);
  const { orderId, checkoutSecret, publishableKey, clientSecret, currency } = session;
  /** The amount a new element is made with; a mounted one follows changes through `elements.update`. */
  const amount = useRef(total);
  amount.current = total;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the "Try again" button's new mount; the amount changes by `update`, not a new element.
  useEffect(() => {
    let element: StripeElement | null = null;
    let cancelled = false;
    setState("loading");
    if (!publishableKey || !clientSecret) {
      setState("failed");
      return;
    }
    loadStripe()
      .then((Stripe) => {
        if (cancelled || !target.current) return;
        const instance = Stripe(publishableKey, { locale });
        const dark = document.documentElement.dataset.theme === "dark";
        const elements = instance.elements({
          mode: "payment",
          amount: amount.current,
          currency: currency.toLowerCase(),
          appearance: { theme: dark ? "night" : "stripe" },
        });
        element = elements.create("payment");
        element.on("ready", () => setState("ready"));
        element.mount(target.current);
        stripe.current = { stripe: instance, elements };
      })
      .catch(() => {
        if (!cancelled) setState("failed");
      });
    return () => {
      cancelled = true;
      element?.destroy();
      stripe.current = null;
    };
  }, [publishableKey, clientSecret, currency, locale, attempt]);

  const succeed = () => {
    setDone(true);
    router.push(resultPathIn(area, "success", orderId));
  };

  /**
   * The API's answer is what is charged (the card's country may add or change the VAT): the
   * summary's VAT line and total, the button and Stripe's element follow it.
   */
  function charge(result: CheckoutConfirmResult) {
    onCharged?.({ total: result.total, vat: result.vat });
    if (result.total === amount.current) return;
    setTotal(result.total);
    stripe.current?.elements.update({ amount: result.total });
  }

  async function nextAction() {
    const current = stripe.current;
    if (!current || !clientSecret) {
      setAlert({ text: t("payFailed") });
      return;
    }
    setPending("action");
    const { error, paymentIntent } = await current.stripe.handleNextAction({ clientSecret });
    if (!error && (paymentIntent?.status === "succeeded" || paymentIntent?.status === "processing")) {
      succeed();
      return;
    }
    // Authentication refused or failed: nothing was charged, another card may be tried.
    setAlert({ title: t("declinedTitle"), text: stripeText(error) ?? t("stripeActionFailed") });
  }

  async function confirm(body: CheckoutConfirmBody, pendingAs: Exclude<Pending, null>) {
    setAlert(null);
    setPending(pendingAs);
    try {
      const result = await api(`/checkout/${encodeURIComponent(orderId)}/confirm`, {
        method: "POST",
        body,
        schema: checkoutConfirmResultSchema,
      });
      charge(result);
      if (result.status === "succeeded" || result.status === "processing") {
        succeed();
        return;
      }
      if (result.status === "needs_country" && result.countries) {
        setCountries(result.countries);
        return;
      }
      setCountries(null);
      if (result.status === "requires_action") {
        await nextAction();
        return;
      }
      setAlert({ title: t("declinedTitle"), text: result.message ?? t("declinedHelp") });
    } catch (err) {
      setAlert({
        text: err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("payFailed"),
      });
    } finally {
      setPending(null);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const current = stripe.current;
    if (!current || pending) return;
    setAlert(null);
    setPending("pay");
    // Stripe validates its own fields first and shows what is missing beside them.
    const submitted = await current.elements.submit();
    if (submitted.error) {
      setAlert({ text: stripeText(submitted.error) ?? t("payFailed") });
      setPending(null);
      return;
    }
    const { error, confirmationToken } = await current.stripe.createConfirmationToken({
      elements: current.elements,
      params: {
        // Where a redirecting payment method (or a bank's page) brings the buyer back.
        return_url: new URL(resultPathIn(area, "success", orderId), window.location.origin).toString(),
        ...(email ? { payment_method_data: { billing_details: { email } } } : {}),
      },
    });
    if (error || !confirmationToken) {
      setAlert({ text: stripeText(error) ?? t("payFailed") });
      setPending(null);
      return;
    }
    asked.current = confirmationToken.id;
    await confirm({ secret: checkoutSecret, confirmationToken: confirmationToken.id }, "pay");
  }

  function answerCountry(which: CountryAnswer) {
    if (!asked.current || !countries) return;
    const parsed = checkoutConfirmBodySchema.safeParse({
      secret: checkoutSecret,
      confirmationToken: asked.current,
      country: countries[which],
    });
    if (!parsed.success) {
      setAlert({ text: t("payFailed") });
      return;
    }
    void confirm(parsed.data, which);
  }

  const alertBox = alert && (
    <div className="checkout-alert" role="alert">
      {alert.title && <strong>{alert.title}</strong>}
      <span>{alert.text}</span>
      {alert.title && <span>{t("declinedHelp")}</span>}
    </div>
  );

  if (done) {
    return (
      <p className="checkout-redirecting" role="status">
        <span className="checkout-spinner" aria-hidden="true" />
        {t("redirecting")}
      </p>
    );
  }

  return (
    <>
      {countries && (
        <CountryQuestion
          countries={countries}
          pending={pending === "billing" || pending === "card" ? pending : null}
          onAnswer={answerCountry}
          alert={alertBox}
        />
      )}
      {/* Kept mounted under the question: Stripe's element holds the card the answer pays with. */}
      <form className="form checkout-card-form" onSubmit={onSubmit} noValidate hidden={countries !== null}>
        <div ref={target} className="checkout-stripe" />
        {state === "loading" && <p className="muted">{t("loadingForm")}</p>}
        {state === "failed" && (
          <div className="checkout-alert" role="alert">
            <span>{t("stripeLoadFailed")}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setAttempt((n) => n + 1)}>
              {t("retry")}
            </button>
          </div>
        )}
        {!countries && alertBox}
        {state !== "failed" && (
          <button
            type="submit"
            className="btn btn-primary"
            disabled={state !== "ready" || pending !== null}
            aria-busy={pending === "pay" || pending === "action"}
          >
            {pending === "action"
              ? t("stripeAuthenticating")
              : pending === "pay"
                ? t("paying")
                : t("pay", { amount: formatMoney(total, currency, locale) })}
          </button>
        )}
      </form>
    </>
  );
}
