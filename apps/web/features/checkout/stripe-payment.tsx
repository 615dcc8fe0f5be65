"use client";

import type { CheckoutResponse } from "@salelink/contracts/checkout";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { formatMoney } from "@/lib/money.ts";
import { type BuyerArea, resultPathIn } from "./paths.ts";

/* The few parts of Stripe.js this page uses (https://docs.stripe.com/js). */
interface StripeElement {
  mount(target: HTMLElement): void;
  destroy(): void;
  on(event: "ready", handler: () => void): void;
}
interface StripeElements {
  create(type: "payment", options?: Record<string, unknown>): StripeElement;
}
interface Stripe {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    confirmParams: { return_url: string; receipt_email?: string };
  }): Promise<{ error?: { type?: string; message?: string } }>;
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

/** Stripe's Payment Element for the checkout's PaymentIntent; Stripe redirects to the result page. */
export function StripePayment({
  session,
  area,
  email,
}: {
  session: CheckoutResponse;
  area: BuyerArea;
  email: string;
}) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const target = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [attempt, setAttempt] = useState(0);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the "Try again" button's new mount.
  useEffect(() => {
    const { publishableKey, clientSecret } = session;
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
          clientSecret,
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
  }, [session, locale, attempt]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe.current) return;
    setPending(true);
    setError(undefined);
    const { error: failed } = await stripe.current.stripe.confirmPayment({
      elements: stripe.current.elements,
      confirmParams: {
        return_url: new URL(
          resultPathIn(area, "success", session.orderId),
          window.location.origin,
        ).toString(),
        ...(email ? { receipt_email: email } : {}),
      },
    });
    // Only reached when Stripe did not redirect: a refused card or invalid details, shown by Stripe's text.
    setError(
      failed && (failed.type === "card_error" || failed.type === "validation_error") && failed.message
        ? failed.message
        : t("payFailed"),
    );
    setPending(false);
  }

  return (
    <form className="form checkout-card-form" onSubmit={onSubmit} noValidate>
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
      {error && (
        <p className="checkout-alert" role="alert">
          {error}
        </p>
      )}
      {state !== "failed" && (
        <button
          type="submit"
          className="btn btn-primary"
          disabled={state !== "ready" || pending}
          aria-busy={pending}
        >
          {pending ? t("paying") : t("pay", { amount: formatMoney(session.total, session.currency, locale) })}
        </button>
      )}
    </form>
  );
}
