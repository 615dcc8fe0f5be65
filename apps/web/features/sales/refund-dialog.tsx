"use client";

import { messageResponseSchema } from "@salelink/contracts/auth";
import {
  REFUND_REASON_MAX,
  type SaleRefundBody,
  type SaleView,
  saleRefundBodySchema,
} from "@salelink/contracts/refunds";
import { useLocale, useTranslations } from "next-intl";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import type { FieldErrors } from "@/lib/form-errors.ts";
import { formatMoney, minorToInput } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { type RefundMode, refundAmountMinor } from "./sale-state.ts";

interface RefundForm {
  mode: RefundMode;
  amount: string;
  reason: string;
}

/** The contract's and the API's `amountMinor` is the typed amount's field. */
const fieldOf = (path: string) => {
  const top = path.split(".")[0] ?? path;
  return top === "amountMinor" ? "amount" : top === "" ? "form" : top;
};

/**
 * The creator refunds a sale: all that is left, or a part of it, with a reason the buyer is told.
 * The API answers once the provider is asked; the page then shows the refund until it is confirmed.
 */
export function RefundDialog({
  sale,
  onClose,
  onChanged,
}: {
  sale: SaleView;
  onClose: () => void;
  /** The sale changed on the API's side: read it again (a refund asked, or refused as stale). */
  onChanged: () => void;
}) {
  const t = useTranslations("sales.refund");
  const locale = useLocale();
  const ref = useModalDialog("input");
  const rest = sale.refundableMinor;
  const restText = formatMoney(rest, sale.currency, locale);

  function messageFor(field: string, code: string): string {
    if (field === "amount") return code === "too_small" ? t("errors.amountPositive") : t("errors.amount");
    if (field === "reason")
      return code === "too_big" ? t("errors.reasonLong", { max: REFUND_REASON_MAX }) : t("errors.reason");
    return t("failed");
  }

  const { form, register, errors, pending, onSubmit } = useContractForm<RefundForm, SaleRefundBody>({
    defaultValues: { mode: "full", amount: minorToInput(rest, sale.currency, locale), reason: "" },
    schema: saleRefundBodySchema,
    toBody: (values) => ({
      amountMinor: refundAmountMinor(values.mode, values.amount, sale),
      reason: values.reason,
    }),
    fieldOf,
    message: messageFor,
    // What is left is known here: the API would refuse more, say it before asking.
    check: (_values, body): FieldErrors =>
      body && body.amountMinor > rest ? { amount: t("errors.amountMax", { amount: restText }) } : {},
    // The API's own (translated) words when they tell the creator something: a closed window, a
    // refund already under way, the provider's refusal; anything else is the generic failure.
    failed: (err) =>
      err instanceof ApiError && (err.status === 409 || err.exception === "PaymentProviderException")
        ? err.message
        : t("failed"),
    onFailure: (err, shown) => {
      // A closed window or a refund asked elsewhere: the page behind shows the sale as it is now.
      if (err instanceof ApiError && err.status === 409) onChanged();
      return shown;
    },
    submit: async (body) => {
      await api(`/sales/${encodeURIComponent(sale.id)}/refunds`, {
        method: "POST",
        body,
        schema: messageResponseSchema,
      });
      toast.success(t("asked"), { description: t("askedText") });
      onChanged();
      ref.current?.close();
    },
  });
  const mode = form.watch("mode");

  function choose(next: RefundMode) {
    // A full refund is all that is left: the amount shows it again, whatever was typed.
    if (next === "full") form.setValue("amount", minorToInput(rest, sale.currency, locale));
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog sale-refund-dialog"
      aria-labelledby="sale-refund-title"
      aria-describedby="sale-refund-text"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="sale-refund-title">{t("title")}</h2>
        <p id="sale-refund-text" className="muted">
          {t("intro", { amount: restText, buyer: sale.buyerEmail })}
        </p>
        <fieldset className="sale-refund-modes">
          <legend>{t("kind")}</legend>
          {(["full", "partial"] as const).map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                value={value}
                {...register("mode", { onChange: (e) => choose(e.target.value as RefundMode) })}
              />
              <span>{value === "full" ? t("full", { amount: restText }) : t("partial")}</span>
            </label>
          ))}
        </fieldset>
        <Field
          {...register("amount")}
          id="sale-refund-amount"
          label={t("amount", { currency: sale.currency })}
          hint={t("amountHint", { amount: restText })}
          inputMode="decimal"
          autoComplete="off"
          readOnly={mode === "full"}
          error={errors.amount}
        />
        <TextAreaField
          {...register("reason")}
          id="sale-refund-reason"
          label={t("reason")}
          hint={t("reasonHint")}
          rows={3}
          maxLength={REFUND_REASON_MAX}
          error={errors.reason}
        />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} pendingLabel={t("asking")} label={t("confirm")} variant="danger" />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
