"use client";

import { type Locale, locales } from "@salelink/contracts/locales";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";

/**
 * Switching maintenance affects every visitor at once: the operator confirms, seeing the messages
 * visitors will read.
 */
export function MaintenanceConfirmDialog({
  turningOn,
  messages,
  onClose,
  onConfirm,
}: {
  turningOn: boolean;
  messages: Partial<Record<Locale, string>>;
  onClose: () => void;
  /** Sends the switch with the reason for the audit log (optional); answers an error to show, or null. */
  onConfirm: (reason: string) => Promise<string | null>;
}) {
  const t = useTranslations("adminOverview.maintenance");
  const ref = useModalDialog("textarea");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const given = locales.filter((l) => messages[l]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setPending(true);
    const failure = await onConfirm(String(new FormData(event.currentTarget).get("reason") ?? "").trim());
    setPending(false);
    if (failure) setError(failure);
    else ref.current?.close();
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog admin-dialog"
      aria-labelledby="maintenance-confirm-title"
      aria-describedby="maintenance-confirm-intro"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="maintenance-confirm-title">{turningOn ? t("confirmOnTitle") : t("confirmOffTitle")}</h2>
        <p id="maintenance-confirm-intro" className="muted admin-dialog-intro">
          {turningOn ? t("confirmOnIntro") : t("confirmOffIntro")}
        </p>
        {turningOn &&
          (given.length > 0 ? (
            <dl className="admin-maintenance-preview">
              {given.map((l) => (
                <div key={l}>
                  <dt>{t(`messageIn.${l}`)}</dt>
                  <dd lang={l}>{messages[l]}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="muted">{t("confirmNoMessage")}</p>
          ))}
        <TextAreaField
          name="reason"
          id="maintenance-reason"
          label={t("reason")}
          hint={t("reasonHint")}
          rows={2}
          maxLength={500}
        />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <SubmitButton
            pending={pending}
            label={turningOn ? t("switchOn") : t("switchOff")}
            pendingLabel={t("switching")}
          />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
