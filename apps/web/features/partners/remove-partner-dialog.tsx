"use client";

import { useTranslations } from "next-intl";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";

/** Removing a partner is final for them (only an invitation brings them back): the creator confirms. */
export function RemovePartnerDialog({
  email,
  pending,
  onConfirm,
  onClose,
}: {
  email: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const t = useTranslations("partners.list");
  const ref = useModalDialog("button");
  return (
    <dialog
      ref={ref}
      className="card profile-dialog"
      aria-labelledby="remove-partner-title"
      aria-describedby="remove-partner-text"
      onClose={onClose}
    >
      <div className="form">
        <h2 id="remove-partner-title">{t("removeTitle")}</h2>
        <p id="remove-partner-text">{t("removeText", { email })}</p>
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={pending}
            aria-busy={pending}
            onClick={onConfirm}
          >
            {t("removeConfirm")}
          </button>
        </div>
      </div>
    </dialog>
  );
}
