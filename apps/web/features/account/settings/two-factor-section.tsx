"use client";

import {
  messageResponseSchema,
  twoFactorEnableResponseSchema,
  twoFactorSetupResponseSchema,
} from "@salelink/contracts";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";

type Setup = { secret: string; qrSvg: string };

/** Turn TOTP on (QR code or manual key, confirm with a code, recovery codes shown once) or off. */
export function TwoFactorSection() {
  const t = useTranslations("settings.twoFactor");
  const { user, refresh } = useAuth();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function run(action: () => Promise<void>) {
    setPending(true);
    setErrors({});
    try {
      await action();
    } catch (err) {
      const fieldErrors = apiFieldErrors(err);
      setErrors(
        fieldErrors.code
          ? { code: t("codeWrong") }
          : fieldErrors.password
            ? { password: t("passwordWrong") }
            : { form: t("failed") },
      );
    } finally {
      setPending(false);
    }
  }

  // The current password first (issue 16): a session left open somewhere must not let someone else
  // put their authenticator on this account.
  const start = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (!password) {
      setErrors({ password: t("passwordRequired") });
      return;
    }
    void run(async () => {
      const result = await api("/auth/2fa/setup", {
        method: "POST",
        body: { password },
        schema: twoFactorSetupResponseSchema,
      });
      setSetup({ secret: result.secret, qrSvg: result.qrSvg });
    });
  };

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!/^\d{6}$/.test(code)) {
      setErrors({ code: t("codeFormat") });
      return;
    }
    void run(async () => {
      const result = await api("/auth/2fa/enable", {
        method: "POST",
        body: { code },
        schema: twoFactorEnableResponseSchema,
      });
      setCodes(result.recoveryCodes);
      setSetup(null);
      await refresh();
      toast.success(t("enabled"));
    });
  };

  const disable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const password = String(f.get("password") ?? "");
    const code = String(f.get("code") ?? "").trim();
    if (!password || code.length < 6) {
      setErrors({
        ...(password ? {} : { password: t("passwordRequired") }),
        ...(code.length < 6 ? { code: t("codeFormat") } : {}),
      });
      return;
    }
    void run(async () => {
      await api("/auth/2fa/disable", {
        method: "POST",
        body: { password, code },
        schema: messageResponseSchema,
      });
      setCodes(null);
      await refresh();
      toast.success(t("disabled"));
    });
  };

  return (
    <section className="card form" id="two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t("title")}</h2>
      <p className="muted">{user?.twoFactorEnabled ? t("onText") : t("offText")}</p>
      {codes && (
        <div className="notice" role="status">
          <p>{t("recoveryIntro")}</p>
          <ul className="recovery-codes" data-testid="recovery-codes">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!user?.twoFactorEnabled && !setup && (
        <form className="stack" method="post" onSubmit={start} noValidate>
          <Field
            name="password"
            id="two-factor-on-password"
            type="password"
            autoComplete="current-password"
            label={t("password")}
            hint={t("passwordWhy")}
            error={errors.password}
          />
          <SubmitButton pending={pending} label={t("turnOn")} />
        </form>
      )}
      {setup && (
        <form className="stack" method="post" onSubmit={confirm} noValidate>
          <p>{t("scan")}</p>
          {/* The QR code is an SVG our API drew; shown as an image, so no markup is injected. */}
          <img
            className="qr"
            src={`data:image/svg+xml;base64,${btoa(setup.qrSvg)}`}
            alt={t("qrAlt")}
            width={200}
            height={200}
          />
          <p>
            {t("manual")} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <Field
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            label={t("code")}
            error={errors.code}
          />
          <SubmitButton pending={pending} label={t("confirm")} />
        </form>
      )}
      {user?.twoFactorEnabled && (
        <form className="stack" method="post" onSubmit={disable} noValidate>
          <Field
            name="password"
            id="two-factor-off-password"
            type="password"
            autoComplete="current-password"
            label={t("password")}
            error={errors.password}
          />
          <Field name="code" autoComplete="one-time-code" label={t("codeOrRecovery")} error={errors.code} />
          <SubmitButton pending={pending} variant="ghost" label={t("turnOff")} />
        </form>
      )}
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
    </section>
  );
}
