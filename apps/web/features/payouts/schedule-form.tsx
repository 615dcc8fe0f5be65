"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type PayoutSchedule,
  type PayoutScheduleBody,
  payoutScheduleBodySchema,
  payoutScheduleSchema,
} from "@salelink/contracts/payouts";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { Field } from "@/components/ui/field.tsx";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { ApiError, api } from "@/lib/api.ts";
import type { FieldErrors } from "@/lib/form-errors.ts";
import { minorToInput, parseAmount } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";

type Kind = PayoutScheduleBody["kind"];
const kinds: readonly Kind[] = ["manual", "weekly", "monthly", "threshold"];
const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;
const days = Array.from({ length: 28 }, (_, i) => i + 1);
/** Amounts are typed as in any currency of two decimals: the threshold applies to each balance. */
const AMOUNT_UNIT: Currency = "EUR";

interface ScheduleValues {
  kind: Kind;
  weekday: string;
  dayOfMonth: string;
  threshold: string;
}

/**
 * When payouts start on their own (issue 23): on request, weekly on a weekday, monthly on a day, or
 * as soon as a balance reaches an amount; and what kept the last due run from paying, with what to do.
 */
export function PayoutScheduleSection({
  minimum,
  onAddAccount,
}: {
  /** The minimum payout in minor units (each currency); null while the rules load. */
  minimum: number | null;
  onAddAccount: (currency: Currency) => void;
}) {
  const t = useTranslations("payouts");
  const schedule = useApiQuery(queryKeys.payoutSchedule, "/profile/payout/schedule", payoutScheduleSchema);
  return (
    <section id="payout-schedule" className="wallet-section" aria-labelledby="payout-schedule-title">
      <h2 id="payout-schedule-title">{t("schedule.title")}</h2>
      <p className="muted">{t("schedule.intro")}</p>
      {schedule.failed ? (
        <LoadFailed message={t("schedule.loadFailed")} retry={t("retry")} onRetry={schedule.reload} />
      ) : schedule.data === null ? (
        <p aria-busy="true" className="muted loading">
          {t("schedule.loading")}
        </p>
      ) : (
        <div className="stack">
          <ScheduleBlockers schedule={schedule.data} onAddAccount={onAddAccount} />
          <ScheduleForm key={schedule.updatedAt} current={schedule.data} minimum={minimum} />
        </div>
      )}
    </section>
  );
}

function ScheduleBlockers({
  schedule,
  onAddAccount,
}: {
  schedule: PayoutSchedule;
  onAddAccount: (currency: Currency) => void;
}) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  if (schedule.blocked.length === 0) return null;
  const when = schedule.blockedAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short" }).format(
        new Date(schedule.blockedAt),
      )
    : null;
  return (
    <div className="payout-steps" role="status" aria-labelledby="schedule-blocked-title">
      <p id="schedule-blocked-title">
        <strong>{when ? t("schedule.blockedOn", { date: when }) : t("schedule.blocked")}</strong>
      </p>
      <ol>
        {schedule.blocked.map((blocker) => (
          <li key={`${blocker.code}-${blocker.currency ?? ""}`}>
            {blocker.code === "onboarding" && (
              <>
                <span>{t("blockers.onboarding")}</span>{" "}
                <Link className="payout-step-action" href="/account/onboarding">
                  {t("blockers.onboardingAction")}
                </Link>
              </>
            )}
            {blocker.code === "identity" && (
              <>
                <span>{t("blockers.identity")}</span>{" "}
                <a className="payout-step-action" href="#identity">
                  {t("blockers.identityAction")}
                </a>
              </>
            )}
            {blocker.code === "suspended" && <span>{t("schedule.suspended")}</span>}
            {blocker.code === "debt" && (
              <>
                <span>
                  {blocker.currency
                    ? t("schedule.debtIn", { currency: blocker.currency })
                    : t("schedule.debt")}
                </span>{" "}
                <a className="payout-step-action" href="#payout-debt">
                  {t("blockers.debtAction")}
                </a>
              </>
            )}
            {blocker.code === "bank_account" && (
              <>
                <span>
                  {blocker.currency
                    ? t("schedule.noAccountIn", { currency: blocker.currency })
                    : t("blockers.bankAccount")}
                </span>{" "}
                <button
                  type="button"
                  className="payout-link-button payout-step-action"
                  onClick={() => onAddAccount(blocker.currency ?? "EUR")}
                >
                  {t("addAccountIn", { currency: blocker.currency ?? "EUR" })}
                </button>
              </>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function valuesOf(schedule: PayoutScheduleBody, minimum: number | null, locale: string): ScheduleValues {
  return {
    kind: schedule.kind,
    weekday: String(schedule.kind === "weekly" ? schedule.weekday : 1),
    dayOfMonth: String(schedule.kind === "monthly" ? schedule.dayOfMonth : 1),
    threshold:
      schedule.kind === "threshold"
        ? minorToInput(schedule.thresholdMinor, AMOUNT_UNIT, locale)
        : minimum === null
          ? ""
          : minorToInput(minimum, AMOUNT_UNIT, locale),
  };
}

function toBody(v: ScheduleValues): unknown {
  switch (v.kind) {
    case "weekly":
      return { kind: "weekly", weekday: Number(v.weekday) };
    case "monthly":
      return { kind: "monthly", dayOfMonth: Number(v.dayOfMonth) };
    case "threshold":
      return { kind: "threshold", thresholdMinor: parseAmount(v.threshold, AMOUNT_UNIT) ?? Number.NaN };
    default:
      return { kind: "manual" };
  }
}

function ScheduleForm({ current, minimum }: { current: PayoutSchedule; minimum: number | null }) {
  const t = useTranslations("payouts");
  const locale = useLocale();
  const client = useQueryClient();
  const weekdayName = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  // 2024-01-01 was a Monday: ISO weekday n is n - 1 days later.
  const nameOf = (n: number) => weekdayName.format(new Date(Date.UTC(2024, 0, n)));
  const minimumText = minimum === null ? null : minorToInput(minimum, AMOUNT_UNIT, locale);

  const { form, register, errors, pending, onSubmit } = useContractForm<ScheduleValues, unknown>({
    defaultValues: valuesOf(current.schedule, minimum, locale),
    schema: payoutScheduleBodySchema,
    toBody,
    fieldOf: (path) =>
      path === "thresholdMinor" ? "threshold" : path === "" ? "form" : (path.split(".")[0] ?? path),
    message: (field) =>
      field === "threshold"
        ? t("schedule.errors.threshold")
        : field === "weekday"
          ? t("schedule.errors.weekday")
          : field === "dayOfMonth"
            ? t("schedule.errors.dayOfMonth")
            : t("schedule.saveFailed"),
    check: (values): FieldErrors => {
      if (values.kind !== "threshold" || minimum === null) return {};
      const minor = parseAmount(values.threshold, AMOUNT_UNIT);
      return minor !== null && minor < minimum
        ? { threshold: t("schedule.errors.thresholdMin", { minimum: minimumText ?? "" }) }
        : {};
    },
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("schedule.saveFailed")),
    submit: async (body) => {
      const saved = await api("/profile/payout/schedule", {
        method: "PUT",
        body,
        schema: payoutScheduleSchema,
      });
      client.setQueryData(queryKeys.payoutSchedule, saved);
      toast.success(t("schedule.saved"), { description: describe(saved.schedule) });
    },
  });
  const kind = form.watch("kind");

  function describe(s: PayoutScheduleBody): string {
    switch (s.kind) {
      case "weekly":
        return t("schedule.describe.weekly", { weekday: nameOf(s.weekday) });
      case "monthly":
        return t("schedule.describe.monthly", { day: s.dayOfMonth });
      case "threshold":
        return t("schedule.describe.threshold", {
          amount: minorToInput(s.thresholdMinor, AMOUNT_UNIT, locale),
        });
      default:
        return t("schedule.describe.manual");
    }
  }

  const next = current.nextRunAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short" }).format(
        new Date(current.nextRunAt),
      )
    : null;

  return (
    <form
      className="card stack schedule-form"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="payout-schedule-title"
    >
      <p className="schedule-current">
        <strong>{t("schedule.current")}</strong> {describe(current.schedule)}
        {next && <span className="muted"> {t("schedule.nextRun", { date: next })}</span>}
      </p>
      <fieldset className="bank-kinds">
        <legend>{t("schedule.kindLegend")}</legend>
        {kinds.map((k) => (
          <div key={k} className="bank-kind">
            <input
              type="radio"
              id={`schedule-kind-${k}`}
              value={k}
              aria-describedby={`schedule-kind-${k}-hint`}
              {...register("kind")}
            />
            <span>
              <label htmlFor={`schedule-kind-${k}`}>{t(`schedule.kinds.${k}`)}</label>
              <small id={`schedule-kind-${k}-hint`} className="muted">
                {t(`schedule.kindHints.${k}`)}
              </small>
            </span>
          </div>
        ))}
      </fieldset>
      {kind === "weekly" && (
        <div className="field">
          <label htmlFor="schedule-weekday">{t("schedule.weekday")}</label>
          <select id="schedule-weekday" {...register("weekday")} aria-invalid={Boolean(errors.weekday)}>
            {weekdays.map((n) => (
              <option key={n} value={String(n)}>
                {nameOf(n)}
              </option>
            ))}
          </select>
          {errors.weekday && <small className="field-error">{errors.weekday}</small>}
        </div>
      )}
      {kind === "monthly" && (
        <div className="field">
          <label htmlFor="schedule-day">{t("schedule.dayOfMonth")}</label>
          <select
            id="schedule-day"
            {...register("dayOfMonth")}
            aria-invalid={Boolean(errors.dayOfMonth)}
            aria-describedby="schedule-day-hint"
          >
            {days.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
          <small id="schedule-day-hint" className="muted">
            {t("schedule.dayOfMonthHint")}
          </small>
          {errors.dayOfMonth && <small className="field-error">{errors.dayOfMonth}</small>}
        </div>
      )}
      {kind === "threshold" && (
        <Field
          {...register("threshold")}
          id="schedule-threshold"
          label={t("schedule.threshold")}
          hint={minimumText ? t("schedule.thresholdHint", { minimum: minimumText }) : undefined}
          inputMode="decimal"
          autoComplete="off"
          error={errors.threshold}
        />
      )}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="actions">
        <SubmitButton pending={pending} label={t("schedule.save")} pendingLabel={t("schedule.saving")} />
      </div>
    </form>
  );
}
