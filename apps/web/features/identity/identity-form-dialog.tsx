"use client";

import {
  type IdentityFormBody,
  type IdentityProviderKind,
  identityFormSchema,
  identitySessionStartSchema,
  VENDOR_DATA_MAX,
} from "@salelink/contracts/identity";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";

/**
 * The identity form of spec section 5: the names only when the account does not supply them, an
 * optional note (vendorData) of at most 1000 characters. A session answered (new or resumed) sends
 * the person to the provider's page.
 */
export function IdentityFormDialog({
  namesOnFile,
  provider,
  onClose,
  onRefused,
}: {
  namesOnFile: boolean;
  provider: IdentityProviderKind;
  onClose: () => void;
  /** The API refused to open a session (already verified, daily limit): the state is read again. */
  onRefused: () => void;
}) {
  const t = useTranslations("identity");
  const ref = useModalDialog(namesOnFile ? "textarea" : "input");
  const [leaving, setLeaving] = useState(false);
  const [vendorData, setVendorData] = useState("");

  function messageFor(field: string, code: string): string {
    if (field === "vendorData") return t("errors.vendorData", { max: VENDOR_DATA_MAX });
    if (code === "too_big") return t("errors.nameTooLong");
    return field === "lastName" ? t("errors.lastName") : t("errors.givenName");
  }

  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: { givenName: "", lastName: "" },
    schema: identityFormSchema(namesOnFile),
    toBody: (values): IdentityFormBody => ({
      ...(namesOnFile ? {} : values),
      ...(vendorData.trim() ? { vendorData } : {}),
    }),
    message: messageFor,
    failed: (err) =>
      err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("failed"),
    onFailure: (err) => {
      if (!(err instanceof ApiError && (err.status === 409 || err.status === 429))) return undefined;
      toast.error(err.status === 409 ? t("alreadyApproved") : t("limitReached"), {
        description: err.body?.message,
      });
      onRefused();
      ref.current?.close();
      return {};
    },
    submit: async (body) => {
      const session = await api("/identity/sessions", {
        method: "POST",
        body,
        schema: identitySessionStartSchema,
      });
      setLeaving(true);
      window.location.assign(session.url);
    },
  });

  const over = vendorData.length > VENDOR_DATA_MAX;
  return (
    <dialog
      ref={ref}
      className="card profile-dialog identity-dialog"
      aria-labelledby="identity-dialog-title"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="identity-dialog-title">{t("formTitle")}</h2>
        <p className="muted identity-dialog-intro">
          {provider === "sandbox" ? t("formIntroSandbox") : t("formIntro")}
        </p>
        {namesOnFile ? (
          <p className="notice identity-dialog-intro">{t("namesOnFile")}</p>
        ) : (
          <div className="grid-2">
            <Field
              {...register("givenName")}
              id="identity-givenName"
              label={t("givenName")}
              autoComplete="given-name"
              required
              maxLength={100}
              error={errors.givenName}
            />
            <Field
              {...register("lastName")}
              id="identity-lastName"
              label={t("lastName")}
              autoComplete="family-name"
              required
              maxLength={100}
              error={errors.lastName}
            />
          </div>
        )}
        {/* No maxLength: a pasted text is not cut silently; the counter and the check say what is too long. */}
        <TextAreaField
          name="vendorData"
          id="identity-vendorData"
          label={t("vendorData")}
          hint={
            <>
              {t("vendorDataHint")}{" "}
              <span className={over ? "identity-counter field-error" : "identity-counter"} aria-live="polite">
                {t("counter", { count: vendorData.length, max: VENDOR_DATA_MAX })}
              </span>
            </>
          }
          rows={4}
          value={vendorData}
          onChange={(e) => setVendorData(e.currentTarget.value)}
          error={errors.vendorData}
        />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton
            pending={pending || leaving}
            label={t("continueToCheck")}
            pendingLabel={leaving ? t("redirecting") : t("starting")}
          />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
