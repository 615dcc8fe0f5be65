"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useId, useState } from "react";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";

/**
 * The sandbox's card issuer on the buyer's order page (issue 32), shown only while the sandbox takes
 * payments: the buyer disputes the payment as if they asked their bank, with a reason and a
 * confirmation. A plain form (buyer pages load neither the form library nor zod up front); the
 * contract loads with the first submission. `reasons` comes from the server (the contract's list).
 */
export function SandboxDispute({ token, reasons }: { token: string; reasons: readonly string[] }) {
  const t = useTranslations("sandboxDispute");
  const id = useId();
  const [errors, setErrors] = useState<{ reason?: string; confirm?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next: typeof errors = {};
    const reason = String(data.get("reason") ?? "");
    if (!data.get("confirm")) next.confirm = t("errors.confirm");
    setPending(true);
    try {
      const { sandboxDisputeBodySchema, sandboxDisputeResultSchema } = await import(
        "@salelink/contracts/disputes"
      );
      const body = sandboxDisputeBodySchema.safeParse({ reason });
      if (!body.success) next.reason = t("errors.reason");
      setErrors(next);
      if (!body.success || next.confirm) return;
      await api(`/sandbox/orders/${encodeURIComponent(token)}/dispute`, {
        method: "POST",
        body: body.data,
        schema: sandboxDisputeResultSchema,
      });
      setDone(true);
    } catch (err) {
      // 409: already disputed; the API says so in the page's language.
      setErrors({
        form: err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("failed"),
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card order-sandbox" aria-labelledby={`${id}-title`}>
      <p className="checkout-sandbox-badge">{t("badge")}</p>
      <h2 id={`${id}-title`}>{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      {done ? (
        <p className="notice" role="status">
          {t("done")}
        </p>
      ) : (
        <form className="form" method="post" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-reason`}>{t("reason")}</label>
            <select
              id={`${id}-reason`}
              name="reason"
              defaultValue=""
              aria-invalid={Boolean(errors.reason)}
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
            >
              <option value="" disabled>
                {t("chooseReason")}
              </option>
              {reasons.map((reason) => (
                <option key={reason} value={reason}>
                  {t(`reasons.${reason}`)}
                </option>
              ))}
            </select>
            {errors.reason && (
              <small id={`${id}-reason-error`} className="field-error">
                {errors.reason}
              </small>
            )}
          </div>
          <div className="field">
            <label className="checkbox">
              <input
                type="checkbox"
                name="confirm"
                aria-invalid={Boolean(errors.confirm)}
                aria-describedby={errors.confirm ? `${id}-confirm-error` : undefined}
              />
              <span>{t("confirm")}</span>
            </label>
            {errors.confirm && (
              <small id={`${id}-confirm-error`} className="field-error">
                {errors.confirm}
              </small>
            )}
          </div>
          {errors.form && (
            <p className="field-error" role="alert">
              {errors.form}
            </p>
          )}
          <div className="actions">
            <SubmitButton
              pending={pending}
              label={t("submit")}
              pendingLabel={t("submitting")}
              variant="danger"
            />
          </div>
        </form>
      )}
    </section>
  );
}
