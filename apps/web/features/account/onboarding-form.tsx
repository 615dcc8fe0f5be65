"use client";

import { europeanCountries, messageResponseSchema, onboardingBodySchema } from "@salelink/contracts";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useMemo, useState } from "react";
import { Field } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { api } from "@/lib/api.ts";
import { apiFieldErrors, type FieldErrors, zodFieldErrors } from "@/lib/form-errors.ts";
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

/** Spec section 2: two variants, professional and individual; the 30 countries of section 9. */
export function OnboardingForm() {
  const t = useTranslations("onboarding");
  const locale = useLocale();
  const router = useRouter();
  const { refresh } = useAuth();
  const [kind, setKind] = useState<Kind>("individual");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: "region" });
    return europeanCountries
      .map((code) => ({ code, name: names.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  }, [locale]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const text = (name: string) => String(f.get(name) ?? "").trim();
    const address = {
      line1: text("line1"),
      ...(text("line2") ? { line2: text("line2") } : {}),
      city: text("city"),
      postalCode: text("postalCode"),
      country: text("country"),
    };
    const candidate =
      kind === "individual"
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
            vatNumber: text("vatNumber").toUpperCase().replace(/\s/g, ""),
            address,
          };
    const parsed = onboardingBodySchema.safeParse(candidate);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error, (field) => t(`errors.${field.replace("address.", "")}`)));
      return;
    }
    if (parsed.data.kind === "individual" && ageInYears(parsed.data.dateOfBirth) < MIN_AGE_YEARS) {
      setErrors({ dateOfBirth: t("errors.tooYoung", { age: MIN_AGE_YEARS }) });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await api("/profile/onboarding", { method: "POST", body: parsed.data, schema: messageResponseSchema });
      await refresh();
      toast.success(t("done"));
      router.push("/account");
    } catch (err) {
      const fieldErrors = apiFieldErrors(err);
      setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: t("failed") });
    } finally {
      setPending(false);
    }
  }

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
            name="firstName"
            label={t("firstName")}
            autoComplete="given-name"
            error={e("firstName")}
            required
          />
          <Field
            name="lastName"
            label={t("lastName")}
            autoComplete="family-name"
            error={e("lastName")}
            required
          />
          <Field
            name="dateOfBirth"
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
            name="companyName"
            label={t("companyName")}
            autoComplete="organization"
            error={e("companyName")}
            required
          />
          <Field
            name="registrationNumber"
            label={t("registrationNumber")}
            error={e("registrationNumber")}
            required
          />
          <Field
            name="vatNumber"
            label={t("vatNumber")}
            hint={t("vatHint")}
            error={e("vatNumber")}
            required
          />
        </div>
      )}
      <fieldset className="stack">
        <legend>{t("address")}</legend>
        <Field
          name="line1"
          label={t("line1")}
          autoComplete="address-line1"
          error={e("address.line1")}
          required
        />
        <Field name="line2" label={t("line2")} autoComplete="address-line2" error={e("address.line2")} />
        <div className="grid-2">
          <Field
            name="postalCode"
            label={t("postalCode")}
            autoComplete="postal-code"
            error={e("address.postalCode")}
            required
          />
          <Field
            name="city"
            label={t("city")}
            autoComplete="address-level2"
            error={e("address.city")}
            required
          />
        </div>
        <label className="field">
          <span>{t("country")}</span>
          <select name="country" defaultValue="" aria-invalid={Boolean(e("address.country"))} required>
            <option value="" disabled>
              {t("chooseCountry")}
            </option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {e("address.country") && <small className="field-error">{e("address.country")}</small>}
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
