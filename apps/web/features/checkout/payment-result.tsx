"use client";

import type { CheckoutStatus } from "@salelink/contracts/checkout";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { type BuyerArea, checkoutPathIn, failureText, orderPathIn } from "./paths.ts";
import { recallCheckout, type StoredCheckout } from "./session.ts";

/** The API applies the provider's event within a second or so; Stripe's webhook may take longer. */
const POLL_MS = 1000;
const POLL_LIMIT_MS = 30_000;

type View =
  | { kind: "checking" }
  | { kind: "missing" }
  | { kind: "unreadable" }
  | {
      kind: "status";
      status: CheckoutStatus;
      timedOut: boolean;
      /** The tab's later checkout, when the one shown failed and that later one was paid. */
      laterPaid: CheckoutStatus | null;
    };

type T = ReturnType<typeof useTranslations<"checkout">>;

const statusPath = (checkout: StoredCheckout) =>
  `/checkout/${encodeURIComponent(checkout.orderId)}?secret=${encodeURIComponent(checkout.checkoutSecret)}`;
const loadStatusSchema = () => import("@salelink/contracts/checkout").then((m) => m.checkoutStatusSchema);

/**
 * A tab that failed a payment and then paid on a new checkout (the error page's "Try again") may
 * come back to the failed one's page, with the back button or its history: what the buyer needs
 * to hear there is that their payment went through.
 */
async function laterPaidCheckout(shown: string, signal: AbortSignal): Promise<CheckoutStatus | null> {
  const latest = recallCheckout(null);
  if (!latest || latest.orderId === shown) return null;
  try {
    const status = await api(statusPath(latest), { schema: loadStatusSchema, signal });
    return status.status === "paid" && status.orderToken ? status : null;
  } catch {
    // Unreadable: the page shows the order it was opened for, as before.
    return null;
  }
}

/** The page's title follows what it shows, not the address it was opened at (success or error). */
function titleOf(view: View, reason: string | null, t: T): string | null {
  if (view.kind === "checking") return null;
  if (view.kind !== "status") return reason ? t("errorTitle") : t("missingTitle");
  const { status } = view;
  if ((status.status === "paid" && status.orderToken) || view.laterPaid) return t("successTitle");
  if (status.status === "pending") return t("pendingTitle");
  if (status.status === "refunded") return t("refundedTitle");
  const failure = failureText(status.failureReason ?? reason);
  if (failure === "soldOut" || failure === "promoUsedUp") return t("unfulfilledTitle");
  return t("errorTitle");
}

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
        const status = await api(statusPath(checkout), {
          schema: loadStatusSchema,
          signal: controller.signal,
        });
        if (status.status === "pending" && Date.now() - started < POLL_LIMIT_MS) {
          timer = setTimeout(poll, POLL_MS);
          return;
        }
        // Not for a payment that went through and is being refunded (sold out): that is its own news.
        const unfulfilled = ["soldOut", "promoUsedUp"].includes(failureText(status.failureReason));
        const laterPaid =
          status.status === "failed" && !unfulfilled
            ? await laterPaidCheckout(checkout.orderId, controller.signal)
            : null;
        if (controller.signal.aborted) return;
        setView({ kind: "status", status, timedOut: status.status === "pending", laterPaid });
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

  const title = titleOf(view, reason, t);
  useEffect(() => {
    if (!title) return;
    const apply = () => {
      // The layout's template adds " · " and the site's name: kept as it is.
      const separator = document.title.indexOf(" · ");
      const wanted = separator >= 0 ? `${title}${document.title.slice(separator)}` : title;
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    // Next.js may write the page's own metadata title after this ran (it streams metadata): the
    // outcome's title is put back whenever the head changes.
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [title]);

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
  const paid = status.status === "paid" && status.orderToken ? status : view.laterPaid;

  if (paid?.orderToken) {
    return (
      <div className="card payment-result">
        <ResultIcon kind="success" />
        <h1 ref={heading} tabIndex={-1}>
          {t("successTitle")}
        </h1>
        <p className="payment-result-lead">
          {t("successText", { amount: formatMoney(paid.total, paid.currency, locale) })}
        </p>
        {paid !== status && <p className="muted">{t("earlierAttemptFailed")}</p>}
        <section className="payment-next" aria-labelledby="payment-next-title">
          <h2 id="payment-next-title">{t("nextTitle")}</h2>
          <ul>
            <li>{t("nextReceipt")}</li>
            <li>{t("nextKeep")}</li>
          </ul>
        </section>
        <div className="actions payment-result-actions">
          <Link href={orderPathIn(area, paid.orderToken)} className="btn btn-primary btn-lg">
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
