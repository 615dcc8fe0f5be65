"use client";

import { adminReasonSchema } from "@salelink/contracts/admin";
import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";

/**
 * The confirmation every operator action of the admin screens (payouts, reports, accounts, orders) goes through:
 * what is about to happen, and the reason the audit log keeps (required, checked before any call).
 * `children` adds the action's own fields (a role to give), read from the same form.
 */
export function ReasonDialog({
  title,
  intro,
  submit,
  pending: pendingLabel,
  reasonLabel,
  reasonHint,
  reasonInvalid,
  children,
  onClose,
  onConfirm,
}: {
  title: string;
  intro: ReactNode;
  submit: string;
  pending: string;
  /** The reason's label when "Reason" is not the right word (a note to the creator). */
  reasonLabel?: string;
  /** Who reads the reason, when not only the audit log (the creator, for a failed payout). */
  reasonHint?: string;
  reasonInvalid?: string;
  children?: ReactNode;
  onClose: () => void;
  /** Sends the action; answers an error message to show, or null once done. */
  onConfirm: (reason: string, form: FormData) => Promise<string | null>;
}) {
  const t = useTranslations("adminOps.dialog");
  const id = useId();
  const ref = useModalDialog("textarea");
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = adminReasonSchema.safeParse(String(form.get("reason") ?? ""));
    setRefused(null);
    if (!parsed.success) {
      setError(reasonInvalid ?? t("reasonInvalid"));
      return;
    }
    setError(null);
    setPending(true);
    const failure = await onConfirm(parsed.data, form);
    setPending(false);
    if (failure) setRefused(failure);
    else ref.current?.close();
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog admin-dialog"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="muted admin-dialog-intro">{intro}</div>
        {children}
        <TextAreaField
          name="reason"
          id={`${id}-reason`}
          label={reasonLabel ?? t("reason")}
          hint={reasonHint ?? t("reasonHint")}
          rows={3}
          required
          error={error ?? undefined}
        />
        {refused && (
          <p className="field-error" role="alert">
            {refused}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} label={submit} pendingLabel={pendingLabel} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
