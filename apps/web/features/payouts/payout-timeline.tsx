"use client";

import { type PayoutDetail, type PayoutStep, payoutDetailSchema } from "@salelink/contracts/payouts";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { DetailStates } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * /account/payouts/{id} (issue 23): one payout and every step it went through, each with its date
 * and what it means: the rules that held it, who approved it, the reference the bank statement
 * shows, or why it failed and what to do.
 */
export function PayoutTimeline({ payoutId }: { payoutId: string }) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const query = useQuery({
    queryKey: queryKeys.payout(payoutId),
    queryFn: ({ signal }) =>
      api(`/profile/payouts/${encodeURIComponent(payoutId)}`, { schema: payoutDetailSchema, signal }),
  });
  const { data: payout, failed, reload } = useQueryState<PayoutDetail>(query);
  const back = (
    <p>
      <Link href="/account/payouts">{t("backToPayouts")}</Link>
    </p>
  );
  if (failed || payout === null) {
    const notFound =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <DetailStates
        className="payout-detail"
        back={back}
        failed={failed}
        notFound={notFound}
        texts={{
          notFound: t("detail.notFound"),
          failed: t("detail.loadFailed"),
          retry: t("retry"),
          loading: t("detail.loading"),
        }}
        onRetry={reload}
      />
    );
  }

  const amount = formatMoney(payout.amount, payout.currency, locale);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short" });
  const rules = (list: readonly string[]) =>
    new Intl.ListFormat(locale, { type: "conjunction" }).format(list.map((r) => t(`rules.${r}`)));
  // Oldest first: the order things happened in.
  const steps = [...payout.steps].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

  return (
    <section className="payout-detail">
      {back}
      <h1>{t("detail.title", { amount })}</h1>
      <dl className="card payout-detail-facts">
        <div>
          <dt>{t("detail.status")}</dt>
          <dd>
            <span className="payout-badge" data-status={payout.status}>
              {t(`status.${payout.status}`)}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t("detail.origin")}</dt>
          <dd>{t(`origin.${payout.origin}`)}</dd>
        </div>
        <div>
          <dt>{t("detail.to")}</dt>
          <dd>
            <span className="bank-code">{payout.bankAccount.ibanMasked}</span> ·{" "}
            {payout.bankAccount.holderName}
          </dd>
        </div>
        <div>
          <dt>{t("detail.reference")}</dt>
          <dd className="bank-code">{payout.bankReference ?? t("detail.noReference")}</dd>
        </div>
      </dl>

      <h2 id="payout-timeline-title">{t("detail.timeline")}</h2>
      {steps.length === 0 ? (
        <p className="muted">{t("detail.noSteps")}</p>
      ) : (
        <ol className="payout-timeline" aria-labelledby="payout-timeline-title">
          {steps.map((step) => (
            <li key={`${step.step}-${step.at}`} className="payout-timeline-step" data-step={step.step}>
              <strong>{t(`steps.${step.step}`)}</strong>{" "}
              <time dateTime={step.at} className="muted">
                {dateTime.format(new Date(step.at))}
              </time>
              <StepDetail step={step} rules={rules} />
            </li>
          ))}
        </ol>
      )}
      {payout.status === "requested" && payout.heldRules.length > 0 && (
        <p className="notice" role="status">
          {t("detail.heldNow")}
        </p>
      )}
    </section>
  );
}

function StepDetail({ step, rules }: { step: PayoutStep; rules: (list: readonly string[]) => string }) {
  const t = useTranslations("payouts");
  const d = step.detail;
  switch (step.step) {
    case "scheduled":
      return d.period ? <p>{t("stepText.scheduled", { period: d.period })}</p> : null;
    case "held":
      return (
        <>
          <p>
            {t("stepText.held", {
              rules: d.rules && d.rules.length > 0 ? rules(d.rules) : t("stepText.noRule"),
            })}
          </p>
          {d.reason && <p className="muted">{t("stepText.note", { note: d.reason })}</p>}
        </>
      );
    case "approved":
      return (
        <>
          <p>{d.by === "admin" ? t("stepText.approvedAdmin") : t("stepText.approvedRules")}</p>
          {d.reason && <p className="muted">{t("stepText.note", { note: d.reason })}</p>}
        </>
      );
    case "sent":
    case "paid":
      return d.bankReference ? (
        <p>
          {t("stepText.reference")} <span className="bank-code">{d.bankReference}</span>
        </p>
      ) : null;
    case "failed":
      return (
        <div className="payout-failure">
          <p>{d.reason ? t("failureReason", { reason: d.reason }) : t("failureNoReason")}</p>
          <p>
            {t("failureReturned")} {t("stepText.failedNext")}{" "}
            <Link href="/account/payouts#bank-accounts">{t("stepText.checkAccounts")}</Link>
          </p>
        </div>
      );
    default:
      return null;
  }
}
