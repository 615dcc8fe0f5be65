"use client";

import { messageResponseSchema, signinBodySchema } from "@salelink/contracts";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import type { FieldErrors } from "@/lib/form-errors.ts";
import { nextFromLocation } from "@/lib/return-path.ts";
import { toast } from "@/lib/toast.ts";
import { useAuth } from "./auth-provider.tsx";

/** Sign-in with the error catalogue of spec section 8, and the second step when 2FA is on. */
export function SignInForm() {
  const t = useTranslations("auth");
  const { refresh } = useAuth();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const code = String(form.get("code") ?? "").trim();
    const parsed = signinBodySchema.safeParse({
      email: form.get("email"),
      password: form.get("password"),
      ...(needsCode ? { code } : {}),
    });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        errors[key] =
          key === "email" ? t("emailInvalid") : key === "code" ? t("codeInvalid") : t("passwordRequired");
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setUnverifiedEmail(null);
    setPending(true);
    try {
      await api("/auth/signin", { method: "POST", body: parsed.data, schema: messageResponseSchema });
      await refresh();
      toast.success(t("signedIn"));
      // Only a path on this site is followed (issue 16: `?next=/\\host` used to leave it).
      router.push(nextFromLocation());
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        toast.error(t("errorTitle"), { description: t("invalidCredentials") });
      } else if (err instanceof ApiError && err.exception === "UnverifiedAccountException") {
        toast.warning(t("verifyEmail"));
        setUnverifiedEmail(parsed.data.email);
      } else if (err instanceof ApiError && err.exception === "TwoFactorAuthenticationRequiredException") {
        if (needsCode) setFieldErrors({ code: t("codeInvalid") });
        else toast.info(t("twoFactorRequired"));
        setNeedsCode(true);
      } else {
        // Spec section 8: any other failure is only logged.
        console.error("sign-in failed", err);
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <div hidden={needsCode} className="stack">
        <Field
          name="email"
          type="email"
          autoComplete="email"
          label={t("email")}
          error={fieldErrors.email}
          required
        />
        <Field
          name="password"
          type="password"
          autoComplete="current-password"
          label={t("password")}
          error={fieldErrors.password}
          required
        />
      </div>
      {needsCode && (
        <Field
          name="code"
          inputMode="text"
          autoComplete="one-time-code"
          label={t("code")}
          hint={t("codeHint")}
          error={fieldErrors.code}
          autoFocus
          required
        />
      )}
      {unverifiedEmail && (
        <p className="notice" role="status">
          {t("unverifiedHelp")}{" "}
          <Link href={`/verify-email?email=${encodeURIComponent(unverifiedEmail)}`}>{t("resendLink")}</Link>
        </p>
      )}
      <SubmitButton
        pending={pending}
        pendingLabel={t("signingIn")}
        label={needsCode ? t("verifyCode") : t("signIn")}
      />
      <p className="muted form-links">
        <Link href="/forgot-password">{t("forgot")}</Link>
        <Link href="/signup">{t("createAccount")}</Link>
      </p>
    </form>
  );
}
