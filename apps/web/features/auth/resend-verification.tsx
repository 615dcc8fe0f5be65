"use client";

import { emailRequestSchema, messageResponseSchema } from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/** "Check your inbox", with a form to send the verification e-mail again. */
export function ResendVerification() {
  const t = useTranslations("verify");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  useEffect(() => {
    setEmail(new URLSearchParams(window.location.search).get("email") ?? "");
  }, []);

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
      await api("/auth/email/resend", { method: "POST", body: parsed.data, schema: messageResponseSchema });
      toast.success(t("resent"));
    } catch (err) {
      if (err instanceof ApiError && err.exception === "RateLimitException") toast.warning(t("slowDown"));
      else toast.error(t("failed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <p>{t("checkInbox")}</p>
      <Field
        name="email"
        type="email"
        autoComplete="email"
        label={t("email")}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error}
        required
      />
      <SubmitButton pending={pending} variant="ghost" pendingLabel={t("sending")} label={t("resend")} />
    </form>
  );
}
