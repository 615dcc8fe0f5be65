"use client";

import { messageResponseSchema, onboardingBodySchema, payoutCountries } from "@salelink/contracts";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { api } from "@/lib/api.ts";
import type { FieldErrors } from "@/lib/form-errors.ts";
import { toast } from "@/lib/toast.ts";

type Kind = "individual" | "professional";

/** The API refuses individuals under this age; said here first, in the visitor's language. */
const MIN_AGE_YEARS = 18;

function ageInYears(isoDate: string, today = new Date()): number {
  const born = new Date(`${isoDate}T00:00:00Z`);
  let age = today.getUTCFullYear() - born.getUTCFullYear();
  const beforeBirthday =
    today.getUTCMonth() < born.getUTCMonth() ||
    (today.getUTCMonth() === born.getUTCMonth() && today.getUTCDate() < born.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}

/**
 * Spec section 2: two variants, professional and individual; the 30 countries of section 9, and since
 * issue 23 every country payouts go to (Switzerland, the United Kingdom, the United States).
 */
export function OnboardingForm() {
  const t = useTranslations("onboarding");
  const locale = useLocale();
  const router = useRouter();
  const { refresh } = useAuth();
  const [kind, setKind] = useState<Kind>("individual");

  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: "region" });
    return payoutCountries
      .map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  }, [locale]);

  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: {
      firstName: "",
      lastName: "",
      dateOfBirth: "",
      companyName: "",
      registrationNumber: "",
      vatNumber: "",
      line1: "",
      line2: "",
      city: "",
      postalCode: "",
      country: "",
    },
    schema: onboardingBodySchema,
    toBody: (values) => {
      const text = (name: keyof typeof values) => values[name].trim();
      const address = {
        line1: text("line1"),
        ...(text("line2") ? { line2: text("line2") } : {}),
        city: text("city"),
        postalCode: text("postalCode"),
        country: text("country"),
      };
      return kind === "individual"
        ? {
            kind,
            firstName: text("firstName"),
            lastName: text("lastName"),
            dateOfBirth: text("dateOfBirth"),
            address,
          }
        : {
            kind,
            companyName: text("companyName"),
            registrationNumber: text("registrationNumber"),
            // Optional outside the EU: an empty field is no number, not a wrong one.
            vatNumber: text("vatNumber").toUpperCase().replace(/\s/g, "") || undefined,
            address,
          };
    },
    // The address's fields are named plainly in the form ("address.city" → "city").
    fieldOf: (path) => path.replace("", ""),
    message: (field) => t(`errors.${field}`),
    check: (_values, body): FieldErrors =>
      body?.kind === "individual" && ageInYears(body.dateOfBirth) < MIN_AGE_YEARS
        ? { dateOfBirth: t("errors.tooYoung", { age: MIN_AGE_YEARS }) }
        : {},
    failed: t("failed"),
    submit: async (body) => {
      await api("/profile/onboarding", { method: "POST", body, schema: messageResponseSchema });
      await refresh();
      toast.success(t("done"));
      router.push("/account");
    },
  });

  const e = (key: string) => errors[key];
  return (
    <form className="form card" method="post" onSubmit={onSubmit} noValidate>
      <fieldset className="segmented">
        <legend>{t("kind")}</legend>
        {(["individual", "professional"] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
            {t(`kinds.${k}`)}
          </label>
        ))}
      </fieldset>
      {kind === "individual" ? (
        <div className="grid-2">
          <Field
            {...register("firstName")}
            label={t("firstName")}
            autoComplete="given-name"
            error={e("firstName")}
            required
          />
          <Field
            {...register("lastName")}
            label={t("lastName")}
            autoComplete="family-name"
            error={e("lastName")}
            required
          />
          <Field
            {...register("dateOfBirth")}
            type="date"
            label={t("dateOfBirth")}
            autoComplete="bday"
            error={e("dateOfBirth")}
            required
          />
        </div>
      ) : (
        <div className="grid-2">
          <Field
            {...register("companyName")}
            label={t("companyName")}
            autoComplete="organization"
            error={e("companyName")}
            required
          />
          <Field
            {...register("registrationNumber")}
            label={t("registrationNumber")}
            error={e("registrationNumber")}
            required
          />
          <Field
            {...register("vatNumber")}
            label={t("vatNumber")}
            hint={t("vatHint")}
            error={e("vatNumber")}
          />
        </div>
      )}
      <fieldset className="stack">
        <legend>{t("address")}</legend>
        <Field
          {...register("line1")}
          label={t("line1")}
          autoComplete="address-line1"
          error={e("line1")}
          required
        />
        <Field {...register("line2")} label={t("line2")} autoComplete="address-line2" error={e("line2")} />
        <div className="grid-2">
          <Field
            {...register("postalCode")}
            label={t("postalCode")}
            autoComplete="postal-code"
            error={e("postalCode")}
            required
          />
          <Field
            {...register("city")}
            label={t("city")}
            autoComplete="address-level2"
            error={e("city")}
            required
          />
        </div>
        <label className="field">
          <span>{t("country")}</span>
          <select {...register("country")} defaultValue="" aria-invalid={Boolean(e("country"))} required>
            <option value="" disabled>
              {t("chooseCountry")}
            </option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {e("country") && <small className="field-error">{e("country")}</small>}
        </label>
      </fieldset>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <SubmitButton pending={pending} pendingLabel={t("saving")} label={t("submit")} />
    </form>
  );
}
