"use client";

import { messageResponseSchema, signupBodySchema } from "@salelink/contracts";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { BotCheckField } from "@/features/bot-check/bot-check-field.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors, zodFieldErrors } from "@/lib/form-errors.ts";
import { readReferral } from "@/lib/referral.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { toast } from "@/lib/toast.ts";

export function SignUpForm() {
  const t = useTranslations("signup");
  const locale = useLocale();
  const router = useRouter();
  const [botToken, setBotToken] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = signupBodySchema.safeParse({
      email: form.get("email"),
      password: form.get("password"),
      acceptTerms: form.get("acceptTerms") === "on",
      locale,
      turnstileToken: botToken ?? "",
    });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error, (field) => t(`errors.${field}`)));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const ref = readReferral((await runtimeConfig()).referralDays);
      const query = ref ? `?ref=${encodeURIComponent(ref)}` : "";
      await api(`/auth/signup${query}`, { method: "POST", body: parsed.data, schema: messageResponseSchema });
      router.push(`/verify-email?email=${encodeURIComponent(parsed.data.email)}`);
    } catch (err) {
      if (err instanceof ApiError && err.exception === "RateLimitException") {
        toast.warning(t("slowDown"), { description: err.message });
      } else {
        // Spec section 8: other failures show the answer's `errors` field.
        const fieldErrors = apiFieldErrors(err);
        setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: t("failed") });
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <Field
        name="email"
        type="email"
        autoComplete="email"
        label={t("email")}
        error={errors.email}
        required
      />
      <Field
        name="password"
        type="password"
        autoComplete="new-password"
        label={t("password")}
        hint={t("passwordHint")}
        error={errors.password}
        required
      />
      <label className="checkbox">
        <input type="checkbox" name="acceptTerms" aria-invalid={Boolean(errors.acceptTerms)} />
        <span>{t.rich("acceptTerms", { terms: (chunks) => <Link href="/legal/terms">{chunks}</Link> })}</span>
      </label>
      {errors.acceptTerms && <small className="field-error">{errors.acceptTerms}</small>}
      <BotCheckField onToken={setBotToken} />
      {errors.turnstileToken && <small className="field-error">{errors.turnstileToken}</small>}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <SubmitButton
        pending={pending}
        disabled={!botToken}
        pendingLabel={t("submitting")}
        label={t("submit")}
      />
      <p className="muted">
        {t("haveAccount")} <Link href="/signin">{t("signIn")}</Link>
      </p>
    </form>
  );
}
