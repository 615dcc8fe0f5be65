"use client";

import { emailRequestSchema, messageResponseSchema } from "@salelink/contracts";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/** Spec section 9: password-reset toasts are delayed by 200 ms (success) or 100 ms (slow down). */
export const RESET_TOAST_DELAY_MS = 200;
export const SLOW_DOWN_TOAST_DELAY_MS = 100;

export function ForgotPasswordForm() {
  const t = useTranslations("password");
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = emailRequestSchema.safeParse({ email: new FormData(event.currentTarget).get("email") });
    if (!parsed.success) {
      setError(t("emailInvalid"));
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      await api("/auth/password/send", { method: "POST", body: parsed.data, schema: messageResponseSchema });
      setSent(true);
      setTimeout(() => toast.success(t("sentToast")), RESET_TOAST_DELAY_MS);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        // Spec section 8: forgot password, 401.
        setTimeout(
          () => toast.warning(t("slowDownTitle"), { description: t("slowDownText") }),
          SLOW_DOWN_TOAST_DELAY_MS,
        );
      } else {
        toast.error(t("failed"));
      }
    } finally {
      setPending(false);
    }
  }

  if (sent) {
    return (
      <div className="card notice" role="status">
        <p>{t("sent")}</p>
        <Link href="/signin">{t("backToSignIn")}</Link>
      </div>
    );
  }
  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <Field name="email" type="email" autoComplete="email" label={t("email")} error={error} required />
      <SubmitButton pending={pending} pendingLabel={t("sending")} label={t("send")} />
      <Link href="/signin" className="muted">
        {t("backToSignIn")}
      </Link>
    </form>
  );
}
