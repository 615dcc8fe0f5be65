"use client";

import { messageResponseSchema, passwordChangeBodySchema } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { BotCheckField } from "@/features/bot-check/bot-check-field.tsx";
import { api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";

/** Spec section 4: a connected password change clears the user and goes to "/". */
export function ChangePasswordSection() {
  const t = useTranslations("settings.password");
  const { leave } = useAuth();
  const [botToken, setBotToken] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const parsed = passwordChangeBodySchema.safeParse({
      oldPassword: f.get("oldPassword"),
      newPassword: f.get("newPassword"),
      turnstileToken: botToken ?? "",
    });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        next[key] ??= key === "oldPassword" ? t("oldRequired") : t("newLength");
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const { message } = await api("/auth/password", {
        method: "PATCH",
        body: parsed.data,
        schema: messageResponseSchema,
      });
      leave("/");
      toast.success(t("changed"), { description: message });
    } catch (err) {
      const fieldErrors = apiFieldErrors(err);
      setErrors(
        fieldErrors.oldPassword
          ? { oldPassword: t("oldWrong") }
          : Object.keys(fieldErrors).length > 0
            ? fieldErrors
            : { form: t("failed") },
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{t("title")}</h2>
      <Field
        name="oldPassword"
        type="password"
        autoComplete="current-password"
        label={t("old")}
        error={errors.oldPassword}
      />
      <Field
        name="newPassword"
        type="password"
        autoComplete="new-password"
        label={t("new")}
        hint={t("hint")}
        error={errors.newPassword}
      />
      <BotCheckField onToken={setBotToken} />
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <SubmitButton pending={pending} disabled={!botToken} pendingLabel={t("saving")} label={t("submit")} />
    </form>
  );
}
