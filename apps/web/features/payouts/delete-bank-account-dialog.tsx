"use client";

import { messageResponseSchema } from "@salelink/contracts/auth";
import type { BankAccount } from "@salelink/contracts/payouts";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/**
 * The spec's "bank delete account": asks first. The API refuses while a payout to the account is open;
 * its reason stays in the dialog, next to the button that was refused.
 */
export function DeleteBankAccountDialog({
  account,
  onClose,
  onDeleted,
}: {
  account: BankAccount;
  onClose: () => void;
  onDeleted: (id: string) => void;
}) {
  const t = useTranslations("payouts");
  // The focus starts on "Cancel": Enter on an opened dialog must not delete.
  const ref = useModalDialog(".bank-delete-cancel");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await api(`/profile/bank-accounts/${account.id}`, { method: "DELETE", schema: messageResponseSchema });
      toast.success(t("bankDeleted"), { description: account.ibanMasked });
      onDeleted(account.id);
    } catch (err) {
      setError(err instanceof ApiError && err.body ? err.body.message : t("bankDeleteFailed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog bank-dialog"
      aria-labelledby="bank-delete-title"
      aria-describedby="bank-delete-body"
      onClose={onClose}
    >
      <div className="form">
        <h2 id="bank-delete-title" className="bank-dialog-title">
          {t("deleteTitle")}
        </h2>
        <p id="bank-delete-body">
          {t("deleteBody", { iban: account.ibanMasked, holder: account.holderName })}
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button
            type="button"
            className="btn btn-danger"
            disabled={pending}
            aria-busy={pending}
            onClick={confirm}
          >
            {pending ? t("deleting") : t("deleteConfirm")}
          </button>
          <button
            type="button"
            className="btn btn-ghost bank-delete-cancel"
            onClick={() => ref.current?.close()}
          >
            {t("cancel")}
          </button>
        </div>
      </div>
    </dialog>
  );
}
