"use client";

import { messageResponseSchema, passwordSchema } from "@salelink/contracts/auth";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { PENDING_VERIFICATION_KEY } from "./pending-verification.ts";

/**
 * When a verification link alone cannot tell whose password the account should get (a link resent
 * on request, or an address signed up more than once: issue 16, else the first person to sign up
 * would keep theirs), whoever follows it chooses the password here, on the verify-email page (the
 * shell only hands the link over), so no page but that one carries this form.
 */
export function VerifyPasswordDialog({
  token,
  onDone,
}: {
  token: string;
  onDone: (verified: boolean) => void;
}) {
  const t = useTranslations("tokens");
  const id = useId();
  const ref = useModalDialog();
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  // A ref, not state: the dialog's close event fires before a re-render would show the new value.
  const verified = useRef(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = passwordSchema.safeParse(String(new FormData(event.currentTarget).get("password") ?? ""));
    if (!parsed.success) {
      setError(t("passwordLength"));
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      await api(`/auth/verify/email/${encodeURIComponent(token)}`, {
        method: "POST",
        body: { password: parsed.data },
        schema: messageResponseSchema,
      });
      toast.success(t("emailVerified"));
      verified.current = true;
      ref.current?.close();
    } catch (err) {
      // The server's message (an expired link…), in the page's language, or a generic one.
      setError(err instanceof ApiError && err.body ? err.body.message : t("error"));
    } finally {
      setPending(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="card profile-dialog"
      aria-labelledby={`${id}-title`}
      onClose={() => onDone(verified.current)}
    >
      <form className="form" method="post" onSubmit={(e) => void onSubmit(e)} noValidate>
        <h2 id={`${id}-title`}>{t("choosePasswordTitle")}</h2>
        <p className="muted">{t("choosePasswordText")}</p>
        <Field
          name="password"
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          label={t("password")}
          hint={t("passwordHint")}
          error={error}
        />
        <div className="actions">
          <SubmitButton pending={pending} label={t("confirmAddress")} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Shows the dialog when a link handed over by the shell is waiting; then on to sign-in. */
export function ChoosePasswordOnArrival() {
  const router = useRouter();
  const [token, setToken] = useState<string | null>(null);

  useEffect(() => {
    setToken(sessionStorage.getItem(PENDING_VERIFICATION_KEY));
  }, []);

  if (!token) return null;
  return (
    <VerifyPasswordDialog
      token={token}
      onDone={(verified) => {
        sessionStorage.removeItem(PENDING_VERIFICATION_KEY);
        setToken(null);
        if (verified) router.push("/signin");
      }}
    />
  );
}
