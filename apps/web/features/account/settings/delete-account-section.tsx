"use client";

import { messageResponseSchema } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";

/**
 * Deletion is confirmed twice: here, with the current password (issue 16: an open session alone is
 * not enough), then through the link e-mailed to the account.
 */
export function DeleteAccountSection() {
  const t = useTranslations("settings.delete");
  const [confirming, setConfirming] = useState(false);
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const [passwordError, setPasswordError] = useState<string | undefined>();

  async function request(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (!password) {
      setPasswordError(t("passwordRequired"));
      return;
    }
    setPasswordError(undefined);
    setPending(true);
    try {
      await api("/profile/delete", { method: "POST", body: { password }, schema: messageResponseSchema });
      setSent(true);
      setConfirming(false);
      toast.success(t("sent"));
    } catch (err) {
      if (apiFieldErrors(err).password) setPasswordError(t("passwordWrong"));
      else if (err instanceof ApiError && err.exception === "RateLimitException") toast.error(t("slowDown"));
      // Money still in the wallet: the server says what to do first, in the user's language.
      else if (err instanceof ApiError && err.exception === "ConflictException") toast.error(err.message);
      else toast.error(t("failed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card form danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t("title")}</h2>
      <p className="muted">{t("text")}</p>
      {sent ? (
        <p className="notice" role="status">
          {t("sent")}
        </p>
      ) : confirming ? (
        <form className="stack" method="post" onSubmit={(e) => void request(e)} noValidate>
          <Field
            name="password"
            id="delete-password"
            type="password"
            autoComplete="current-password"
            label={t("password")}
            hint={t("passwordWhy")}
            error={passwordError}
          />
          <div className="cta-row">
            <SubmitButton pending={pending} variant="danger" label={t("confirm")} />
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setConfirming(false);
                setPasswordError(undefined);
              }}
              disabled={pending}
            >
              {t("cancel")}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="btn btn-ghost" onClick={() => setConfirming(true)}>
          {t("start")}
        </button>
      )}
    </section>
  );
}
