"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { ApiError } from "@/lib/api.ts";
import { apiFieldErrors } from "@/lib/form-errors.ts";
import { requestLibraryLink } from "./purchases-api.ts";

/**
 * "Send me my purchases": an address in, the API's one answer out, shown in place. The answer is
 * the same whether the address bought anything (the API decides; nothing here tells them apart).
 * A plain form: buyer pages do not load react-hook-form (decision 028).
 */
export function RequestLinkForm() {
  const t = useTranslations("purchases");
  const locale = useLocale();
  const { user } = useAuth();
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [answer, setAnswer] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!email) {
      setError(t("emailRequired"));
      return;
    }
    setError(undefined);
    setFailure(undefined);
    setPending(true);
    try {
      const sent = await requestLibraryLink(email, locale);
      setAnswer(sent.message);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        setError(apiFieldErrors(err).email ?? t("emailInvalid"));
      } else if (err instanceof ApiError && err.status === 429) {
        setFailure(t("tooMany"));
      } else {
        setFailure(t("requestFailed"));
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {answer ? (
        <div className="card notice" role="status">
          <p>{answer}</p>
          <button type="button" className="btn btn-ghost" onClick={() => setAnswer(undefined)}>
            {t("sendAgain")}
          </button>
        </div>
      ) : (
        <form className="form card" method="post" onSubmit={onSubmit} noValidate>
          <Field name="email" type="email" autoComplete="email" label={t("email")} error={error} required />
          {failure && (
            <p className="field-error" role="alert">
              {failure}
            </p>
          )}
          <SubmitButton pending={pending} pendingLabel={t("sending")} label={t("send")} />
        </form>
      )}
      {user && (
        <p className="purchases-account">
          <Link href="/account/purchases">{t("accountLink")}</Link>
        </p>
      )}
    </>
  );
}
