"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";
import { ReportIcon } from "./report-icon.tsx";

/** The contract's reasons (reportReasons), with their message keys. */
const reasons = [
  ["not-as-described", "notAsDescribed"],
  ["not-received", "notReceived"],
  ["illegal", "illegal"],
  ["copyright", "copyright"],
  ["other", "other"],
] as const;

export interface ReportDialogProps {
  /** An order token (the order page) or a link token (the link page): the API tells them apart. */
  token: string;
  /** A link's dialog opens at once: the link page loads it on the click that asks for it. */
  kind: "order" | "link";
}

/** The spec's "link report modal": a reason and a message about an order or a link, to POST /report. */
export function ReportDialog({ token, kind }: ReportDialogProps) {
  const t = useTranslations("report");
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(kind === "link");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLSelectElement>("select")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function close() {
    setOpen(false);
    setErrors({});
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      token,
      reason: String(data.get("reason") ?? ""),
      message: String(data.get("message") ?? ""),
    };
    setPending(true);
    try {
      // The contract (and zod) load with the first report, not with the page.
      const { reportBodySchema } = await import("@salelink/contracts/checkout");
      const parsed = reportBodySchema.safeParse(input);
      if (!parsed.success) {
        const next: FieldErrors = {};
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0]);
          next[field] ??=
            field === "reason" ? t("errors.reason") : field === "message" ? t("errors.message") : t("failed");
        }
        setErrors(next);
        return;
      }
      setErrors({});
      const answer = await api("/report", {
        method: "POST",
        body: parsed.data,
        schema: () => import("@salelink/contracts/auth").then((m) => m.messageResponseSchema),
      });
      toast.success(answer.message);
      form.reset();
      close();
    } catch (err) {
      const fields = apiFieldErrors(err);
      if (Object.keys(fields).length > 0) setErrors(fields);
      // 429: this reporter already reported this link, or sent the most reports a day allows; the
      // API says which, in the page's language.
      else if (err instanceof ApiError && err.body && err.status < 500) setErrors({ form: err.body.message });
      else setErrors({ form: t("failed") });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => setOpen(true)}>
        <ReportIcon />
        {t("button")}
      </button>
      <dialog ref={ref} className="card report-dialog" aria-labelledby="report-dialog-title" onClose={close}>
        <form className="form" method="post" onSubmit={onSubmit} noValidate>
          <h2 id="report-dialog-title">{t(kind === "link" ? "linkHeading" : "orderHeading")}</h2>
          <p className="muted report-dialog-lead">{t("lead")}</p>
          <div className="field">
            <label htmlFor="report-reason">{t("reason")}</label>
            <select
              id="report-reason"
              name="reason"
              defaultValue=""
              aria-invalid={Boolean(errors.reason)}
              aria-describedby={errors.reason ? "report-reason-error" : undefined}
            >
              <option value="" disabled>
                {t("chooseReason")}
              </option>
              {reasons.map(([value, key]) => (
                <option key={value} value={value}>
                  {t(`reasons.${key}`)}
                </option>
              ))}
            </select>
            {errors.reason && (
              <small id="report-reason-error" className="field-error">
                {errors.reason}
              </small>
            )}
          </div>
          <TextAreaField
            id="report-message"
            name="message"
            label={t("message")}
            hint={t("messageHint")}
            rows={5}
            maxLength={2000}
            error={errors.message}
          />
          {errors.form && (
            <p className="report-dialog-alert" role="alert">
              {errors.form}
            </p>
          )}
          <div className="actions report-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={close}>
              {t("cancel")}
            </button>
            <SubmitButton pending={pending} label={t("send")} pendingLabel={t("sending")} />
          </div>
        </form>
      </dialog>
    </>
  );
}
