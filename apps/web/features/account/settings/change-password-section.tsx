"use client";

import { messageResponseSchema, passwordChangeBodySchema } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { BotCheckField } from "@/features/bot-check/bot-check-field.tsx";
import { api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/** Spec section 4: a connected password change clears the user and goes to "/". */
export function ChangePasswordSection() {
  const t = useTranslations("settings.password");
  const { leave } = useAuth();
  const [botToken, setBotToken] = useState<string | null>(null);
  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: { oldPassword: "", newPassword: "" },
    schema: passwordChangeBodySchema,
    toBody: (values) => ({ ...values, turnstileToken: botToken ?? "" }),
    message: (field) => (field === "oldPassword" ? t("oldRequired") : t("newLength")),
    failed: t("failed"),
    onFailure: (_err, shown) => (shown.oldPassword ? { oldPassword: t("oldWrong") } : undefined),
    submit: async (body) => {
      const { message } = await api("/auth/password", {
        method: "PATCH",
        body,
        schema: messageResponseSchema,
      });
      leave("/");
      toast.success(t("changed"), { description: message });
    },
  });

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{t("title")}</h2>
      <Field
        {...register("oldPassword")}
        type="password"
        autoComplete="current-password"
        label={t("old")}
        error={errors.oldPassword}
      />
      <Field
        {...register("newPassword")}
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
