"use client";

import { messageResponseSchema, signinBodySchema } from "@salelink/contracts";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { ApiError, api } from "@/lib/api.ts";
import { useAuth } from "./auth-provider.tsx";

/** Sign-in with the error catalogue of spec section 8. */
export function SignInForm() {
  const t = useTranslations("auth");
  const { refresh } = useAuth();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = signinBodySchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0]);
        errors[key] = key === "email" ? t("emailInvalid") : t("passwordRequired");
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setPending(true);
    try {
      await api("/auth/signin", { method: "POST", body: parsed.data, schema: messageResponseSchema });
      await refresh();
      toast.success(t("signedIn"));
      router.push("/");
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        toast.error(t("errorTitle"), { description: t("invalidCredentials") });
      } else if (err instanceof ApiError && err.exception === "UnverifiedAccountException") {
        toast.warning(t("verifyEmail"));
      } else if (err instanceof ApiError && err.exception === "TwoFactorAuthenticationRequiredException") {
        toast.info(t("twoFactorRequired"));
      } else {
        // Spec section 8: any other failure is only logged.
        console.error("sign-in failed", err);
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <label className="field">
        <span>{t("email")}</span>
        <input
          name="email"
          type="email"
          autoComplete="email"
          required
          aria-invalid={Boolean(fieldErrors.email)}
          aria-describedby={fieldErrors.email ? "email-error" : undefined}
        />
        {fieldErrors.email && (
          <small id="email-error" className="field-error">
            {fieldErrors.email}
          </small>
        )}
      </label>
      <label className="field">
        <span>{t("password")}</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby={fieldErrors.password ? "password-error" : undefined}
        />
        {fieldErrors.password && (
          <small id="password-error" className="field-error">
            {fieldErrors.password}
          </small>
        )}
      </label>
      <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending}>
        {pending ? t("signingIn") : t("signIn")}
      </button>
    </form>
  );
}
