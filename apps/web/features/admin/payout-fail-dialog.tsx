"use client";

import { type AdminPayout, payoutFailBodySchema } from "@salelink/contracts/payouts";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { formatMoney } from "@/lib/money.ts";

/**
 * Marking a payout failed needs a reason: the creator reads it beside the payout, and the amount
 * returns to their available balance.
 */
export function PayoutFailDialog({
  payout,
  onClose,
  onConfirm,
}: {
  payout: AdminPayout;
  onClose: () => void;
  /** Sends the failure; answers an error message to show, or null once done. */
  onConfirm: (reason: string) => Promise<string | null>;
}) {
  const t = useTranslations("admin.payouts");
  const locale = useLocale();
  const ref = useModalDialog("textarea");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = payoutFailBodySchema.safeParse({
      reason: String(new FormData(event.currentTarget).get("reason") ?? ""),
    });
    if (!parsed.success) {
      setError(t("failReasonInvalid"));
      return;
    }
    setError(null);
    setPending(true);
    const failure = await onConfirm(parsed.data.reason);
    setPending(false);
    if (failure) setError(failure);
    else ref.current?.close();
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog admin-dialog"
      aria-labelledby="payout-fail-title"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="payout-fail-title">{t("failTitle")}</h2>
        <p className="muted admin-dialog-intro">
          {t("failIntro", {
            amount: formatMoney(payout.amount, payout.currency, locale),
            email: payout.user.email,
          })}
        </p>
        <TextAreaField
          name="reason"
          id="payout-fail-reason"
          label={t("failReason")}
          hint={t("failReasonHint")}
          rows={3}
          required
          error={error ?? undefined}
        />
        <div className="actions">
          <SubmitButton pending={pending} label={t("markFailed")} pendingLabel={t("failing")} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
