"use client";

import {
  type Currency,
  createPromoCodeBodySchema,
  currencies,
  type Link,
  type PromoCode,
  type PromoKind,
  promoCodeSchema,
} from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { checkedValues, useContractForm } from "@/components/ui/use-contract-form.ts";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import { minorToDecimal, parseAmount } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { endOfDayIso, isoToDateInput } from "./promo-status.ts";

/** A whole number typed in a text field; NaN (refused by the schema) for anything else. */
function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The modal form that creates a promo code (code null) or edits one, prefilled. */
export function PromoCodeDialog({
  code,
  links,
  defaultCurrency,
  onClose,
  onSaved,
}: {
  code: PromoCode | null;
  /** My links to restrict the code to; null when they could not be loaded. */
  links: Link[] | null;
  defaultCurrency: Currency;
  onClose: () => void;
  onSaved: (code: PromoCode) => void;
}) {
  const t = useTranslations("promoCodes");
  const ref = useModalDialog();
  const [kind, setKind] = useState<PromoKind>(code?.kind ?? "percent");

  function messageFor(field: string, currentKind: PromoKind): string {
    if (field === "value") return currentKind === "percent" ? t("errors.percent") : t("errors.amount");
    if (field === "currency") return t("errors.currency");
    if (field === "expiresAt") return t("errors.expiresAt");
    if (field === "usageLimit") return t("errors.usageLimit");
    if (field === "linkIds") return t("errors.linkIds");
    return t("errors.code");
  }

  const restricted = new Set(code?.linkIds ?? []);
  // Links taken down by moderation can no longer be chosen, unless the code already names them.
  const choosable = (links ?? []).filter((l) => l.status !== "removed" || restricted.has(l.id));
  const defaultValue =
    code === null
      ? ""
      : code.kind === "fixed" && code.currency
        ? minorToDecimal(code.value, code.currency)
        : String(code.value);

  const { form, register, errors, pending, onSubmit } = useContractForm({
    defaultValues: {
      code: code?.code ?? "",
      value: defaultValue,
      currency: code?.currency ?? defaultCurrency,
      expiresAt: code?.expiresAt ? isoToDateInput(code.expiresAt) : "",
      usageLimit: code?.usageLimit == null ? "" : String(code.usageLimit),
      linkIds: [...restricted],
    },
    schema: createPromoCodeBodySchema,
    toBody: (values) => {
      const currency = values.currency as Currency;
      const value =
        kind === "percent"
          ? /^\s*\d+\s*$/.test(values.value)
            ? Number(values.value)
            : Number.NaN
          : (parseAmount(values.value, currency) ?? Number.NaN);
      const expiresAt = values.expiresAt === "" ? null : endOfDayIso(values.expiresAt);
      return {
        kind,
        value,
        ...(kind === "fixed" ? { currency } : {}),
        code: values.code,
        // An unreadable date is sent to the schema as is, which refuses it under its field.
        expiresAt: expiresAt ?? (values.expiresAt === "" ? null : values.expiresAt),
        usageLimit: parseCount(values.usageLimit),
        linkIds: checkedValues(values.linkIds),
      };
    },
    fieldOf: (path) => (path === "" ? "code" : (path.split(".")[0] ?? path)),
    message: (field) => messageFor(field, kind),
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("failed")),
    submit: async (parsed) => {
      const body = code
        ? {
            ...parsed,
            currency: parsed.kind === "fixed" ? parsed.currency : null,
            // Without my links on screen the restriction could not be shown: leave it as it is.
            linkIds: links ? parsed.linkIds : undefined,
          }
        : parsed;
      const saved = await api(code ? `/promo-codes/${code.id}` : "/promo-codes", {
        method: code ? "PATCH" : "POST",
        body,
        schema: promoCodeSchema,
      });
      toast.success(code ? t("updated") : t("created"));
      onSaved(saved);
    },
  });

  return (
    <dialog
      ref={ref}
      className="card profile-dialog promo-dialog"
      aria-labelledby="promo-dialog-title"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="promo-dialog-title">{code ? t("editTitle") : t("createTitle")}</h2>
        <Field
          {...register("code")}
          label={t("code")}
          hint={t("codeHint")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          className="promo-code-input"
          error={errors.code}
        />
        <fieldset>
          <legend>{t("kind")}</legend>
          <div className="segmented">
            {(["percent", "fixed"] as const).map((k) => (
              <label key={k}>
                <input
                  type="radio"
                  name="kind"
                  value={k}
                  checked={kind === k}
                  onChange={() => {
                    setKind(k);
                    // The value field is another one for the other kind: it starts from that kind's value.
                    form.setValue("value", code?.kind === k ? defaultValue : "");
                    form.clearErrors(["value", "currency"]);
                  }}
                />
                {k === "percent" ? t("kindPercent") : t("kindFixed")}
              </label>
            ))}
          </div>
        </fieldset>
        <div className={kind === "fixed" ? "promo-amount-row" : undefined}>
          <Field
            key={kind}
            {...register("value")}
            label={kind === "percent" ? t("percentValue") : t("amountValue")}
            hint={kind === "percent" ? t("percentHint") : t("amountHint")}
            inputMode={kind === "percent" ? "numeric" : "decimal"}
            autoComplete="off"
            error={errors.value}
          />
          {kind === "fixed" && (
            <div className="field">
              <label htmlFor="currency">{t("currency")}</label>
              <select
                id="currency"
                {...register("currency")}
                aria-invalid={Boolean(errors.currency)}
                aria-describedby={["currency-hint", errors.currency ? "currency-error" : null]
                  .filter(Boolean)
                  .join(" ")}
              >
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
              <small id="currency-hint" className="muted">
                {t("currencyHint")}
              </small>
              {errors.currency && (
                <small id="currency-error" className="field-error">
                  {errors.currency}
                </small>
              )}
            </div>
          )}
        </div>
        <div className="grid-2">
          <Field
            {...register("expiresAt")}
            type="date"
            label={t("expiresAt")}
            hint={t("expiresAtHint")}
            error={errors.expiresAt}
          />
          <Field
            {...register("usageLimit")}
            label={t("usageLimit")}
            hint={t("usageLimitHint")}
            inputMode="numeric"
            autoComplete="off"
            error={errors.usageLimit}
          />
        </div>
        <fieldset
          aria-describedby={["linkIds-hint", errors.linkIds ? "linkIds-error" : null]
            .filter(Boolean)
            .join(" ")}
        >
          <legend>{t("links")}</legend>
          <p id="linkIds-hint" className="muted promo-hint">
            {links === null ? t("linksLoadFailed") : choosable.length === 0 ? t("noLinks") : t("linksHint")}
          </p>
          {choosable.length > 0 && (
            <ul className="promo-link-choices">
              {choosable.map((link) => (
                <li key={link.id}>
                  <label className="checkbox">
                    <input type="checkbox" {...register("linkIds")} value={link.id} />
                    <span>
                      {link.title}
                      {link.status !== "active" && (
                        <span className="muted">
                          {" "}
                          ({link.status === "paused" ? t("linkPaused") : t("linkRemoved")})
                        </span>
                      )}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {errors.linkIds && (
            <small id="linkIds-error" className="field-error">
              {errors.linkIds}
            </small>
          )}
        </fieldset>
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} pendingLabel={t("saving")} label={t("save")} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
