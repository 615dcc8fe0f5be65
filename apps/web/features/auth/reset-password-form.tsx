"use client";

import { passwordSchema, passwordStoreBodySchema, passwordStoreResponseSchema } from "@salelink/contracts";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { BotCheckField } from "@/features/bot-check/bot-check-field.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";
import { RESET_TOAST_DELAY_MS } from "./forgot-password-form.tsx";

/** The page the reset e-mail links to: /reset-password?token=… */
export function ResetPasswordForm() {
  const t = useTranslations("password");
  const router = useRouter();
  const [token, setToken] = useState<string | null>(null);
  const [botToken, setBotToken] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    setToken(new URLSearchParams(window.location.search).get("token"));
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (!passwordSchema.safeParse(password).success) {
      setErrors({ password: t("passwordLength") });
      return;
    }
    if (password !== form.get("confirm")) {
      setErrors({ confirm: t("mismatch") });
      return;
    }
    const parsed = passwordStoreBodySchema.safeParse({ token, password, turnstileToken: botToken ?? "" });
    if (!parsed.success) {
      setErrors({ form: t("linkInvalid") });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const result = await api("/auth/password/store", {
        method: "POST",
        body: parsed.data,
        schema: passwordStoreResponseSchema,
      });
      if (!result.success) throw new Error(result.message);
      setTimeout(() => toast.success(t("resetDone")), RESET_TOAST_DELAY_MS);
      router.push("/signin");
    } catch (err) {
      const fieldErrors = apiFieldErrors(err);
      setErrors(
        Object.keys(fieldErrors).length > 0
          ? fieldErrors
          : { form: err instanceof ApiError && err.status === 400 ? t("linkInvalid") : t("failed") },
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <Field
        name="password"
        type="password"
        autoComplete="new-password"
        label={t("newPassword")}
        hint={t("passwordHint")}
        error={errors.password}
        required
      />
      <Field
        name="confirm"
        type="password"
        autoComplete="new-password"
        label={t("confirm")}
        error={errors.confirm}
        required
      />
      <BotCheckField onToken={setBotToken} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form} <Link href="/forgot-password">{t("askAgain")}</Link>
        </p>
      )}
      <SubmitButton
        pending={pending}
        disabled={!botToken || !token}
        pendingLabel={t("saving")}
        label={t("save")}
      />
    </form>
  );
}
