"use client";

import type { CheckoutStatus } from "@salelink/contracts/checkout";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { type BuyerArea, checkoutPathIn, failureText, orderPathIn } from "./paths.ts";
import { recallCheckout } from "./session.ts";

/** The API applies the provider's event within a second or so; Stripe's webhook may take longer. */
const POLL_MS = 1000;
const POLL_LIMIT_MS = 30_000;

type View =
  | { kind: "checking" }
  | { kind: "missing" }
  | { kind: "unreadable" }
  | { kind: "status"; status: CheckoutStatus; timedOut: boolean };

/**
 * The outcome of the tab's checkout (success and error pages alike): the order from `?order=`, its
 * secret from sessionStorage, polled while pending. What is shown follows the order's real status,
 * whichever page the buyer landed on.
 */
export function PaymentResult({ area }: { area: BuyerArea }) {
  const t = useTranslations("checkout");
  const locale = useLocale();
  const query = useSearchParams();
  const orderId = query.get("order");
  const reason = query.get("reason");
  const [view, setView] = useState<View>({ kind: "checking" });
  const [round, setRound] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Each new round polls afresh ("Check again").
    void round;
    const checkout = recallCheckout(orderId);
    if (!checkout) {
      setView({ kind: "missing" });
      return;
    }
    const controller = new AbortController();
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setView({ kind: "checking" });
    const poll = async () => {
      try {
        const status = await api(
          `/checkout/${encodeURIComponent(checkout.orderId)}?secret=${encodeURIComponent(checkout.checkoutSecret)}`,
          {
            schema: () => import("@salelink/contracts/checkout").then((m) => m.checkoutStatusSchema),
            signal: controller.signal,
          },
        );
        if (status.status === "pending" && Date.now() - started < POLL_LIMIT_MS) {
          timer = setTimeout(poll, POLL_MS);
          return;
        }
        setView({ kind: "status", status, timedOut: status.status === "pending" });
      } catch (err) {
        if (controller.signal.aborted) return;
        // A network hiccup is retried within the time limit; a refusal (404: not this tab's order) is final.
        if (!(err instanceof ApiError) && Date.now() - started < POLL_LIMIT_MS) {
          timer = setTimeout(poll, POLL_MS);
          return;
        }
        setView({ kind: "unreadable" });
      }
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [orderId, round]);

  // Screen readers and keyboards start from the outcome once it is known.
  useEffect(() => {
    if (view.kind !== "checking") heading.current?.focus();
  }, [view.kind]);

  if (view.kind === "checking") {
    return (
      <div className="card payment-result" aria-busy="true">
        <span className="checkout-spinner checkout-spinner-lg" aria-hidden="true" />
        <h1>{t("checking")}</h1>
        <p className="muted">{t("checkingText")}</p>
      </div>
    );
  }

  const home = (
    <Link href="/" className="btn btn-ghost">
      {t("home")}
    </Link>
  );

  if (view.kind !== "status") {
    // No checkout of this tab: explain, never leave the page blank. A reason in the URL still says what failed.
    return (
      <div className="card payment-result">
        <ResultIcon kind={reason ? "error" : "info"} />
        <h1 ref={heading} tabIndex={-1}>
          {reason ? t("errorTitle") : t("missingTitle")}
        </h1>
        {reason && <p>{t(`reason.${failureText(reason)}`)}</p>}
        <p className="muted">{t("missingText")}</p>
        <div className="actions payment-result-actions">{home}</div>
      </div>
    );
  }

  const { status } = view;
  const amount = formatMoney(status.total, status.currency, locale);

  if (status.status === "paid" && status.orderToken) {
    return (
      <div className="card payment-result">
        <ResultIcon kind="success" />
        <h1 ref={heading} tabIndex={-1}>
          {t("successTitle")}
        </h1>
        <p className="payment-result-lead">{t("successText", { amount })}</p>
        <section className="payment-next" aria-labelledby="payment-next-title">
          <h2 id="payment-next-title">{t("nextTitle")}</h2>
          <ul>
            <li>{t("nextReceipt")}</li>
            <li>{t("nextKeep")}</li>
          </ul>
        </section>
        <div className="actions payment-result-actions">
          <Link href={orderPathIn(area, status.orderToken)} className="btn btn-primary btn-lg">
            {t("openOrder")}
          </Link>
        </div>
      </div>
    );
  }

  if (status.status === "pending") {
    return (
      <div className="card payment-result">
        <ResultIcon kind="info" />
        <h1 ref={heading} tabIndex={-1}>
          {t("pendingTitle")}
        </h1>
        <p>{t("pendingText")}</p>
        <div className="actions payment-result-actions">
          <button type="button" className="btn btn-primary" onClick={() => setRound((n) => n + 1)}>
            {t("checkAgain")}
          </button>
          {home}
        </div>
      </div>
    );
  }

  if (status.status === "refunded") {
    return (
      <div className="card payment-result">
        <ResultIcon kind="info" />
        <h1 ref={heading} tabIndex={-1}>
          {t("refundedTitle")}
        </h1>
        <p>{t("refundedText", { amount })}</p>
        <div className="actions payment-result-actions">{home}</div>
      </div>
    );
  }

  const failure = failureText(status.failureReason ?? reason);
  if (failure === "soldOut" || failure === "promoUsedUp") {
    return (
      <div className="card payment-result" data-testid="payment-unfulfilled">
        <ResultIcon kind="info" />
        <h1 ref={heading} tabIndex={-1}>
          {t("unfulfilledTitle")}
        </h1>
        <p className="payment-result-lead">{t(`reason.${failure}`)}</p>
        <p className="muted">{t("unfulfilledHelp")}</p>
        <div className="actions payment-result-actions">{home}</div>
      </div>
    );
  }

  return (
    <div className="card payment-result">
      <ResultIcon kind="error" />
      <h1 ref={heading} tabIndex={-1}>
        {t("errorTitle")}
      </h1>
      <p className="payment-result-lead">{t(`reason.${failureText(status.failureReason ?? reason)}`)}</p>
      <p className="muted">{t("tryAgainHelp")}</p>
      <div className="actions payment-result-actions">
        <Link href={checkoutPathIn(area, status.linkToken)} className="btn btn-primary btn-lg">
          {t("tryAgain")}
        </Link>
        {home}
      </div>
    </div>
  );
}

function ResultIcon({ kind }: { kind: "success" | "error" | "info" }) {
  const path = {
    success: "M5 12.5l4.5 4.5L19 7.5",
    error: "M12 7v6 M12 16.5v.5",
    info: "M12 11v6 M12 7.5v.5",
  }[kind];
  return (
    <span className={`payment-result-icon payment-result-${kind}`} aria-hidden="true">
      <svg
        aria-hidden="true"
        width="28"
        height="28"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.25"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={path} />
      </svg>
    </span>
  );
}
