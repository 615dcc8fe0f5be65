"use client";

import {
  type CreateLinkBody,
  type CreatorProfile,
  type Currency,
  createLinkBodySchema,
  currencies,
  type Link,
  linkSchema,
  REFUND_WINDOW_DEFAULT_DAYS,
  REFUND_WINDOW_MAX_DAYS,
  type UpdateLinkBody,
  updateLinkBodySchema,
} from "@salelink/contracts";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useModalDialog } from "@/components/ui/use-modal-dialog.ts";
import { ApiError, api } from "@/lib/api.ts";
import type { FieldErrors } from "@/lib/form-errors.ts";
import { currencyDigits, formatMoney, minorToInput, parseAmount } from "@/lib/money.ts";
import { toast } from "@/lib/toast.ts";
import { FileUpload, type UploadValue, uploadValueOf } from "../uploads/file-upload.tsx";

export interface PriceRules {
  priceMinMinor: number;
  priceMaxMinor: number;
  defaultCurrency: Currency;
}

/** What the form's own fields hold (the price as typed); uploads and the currency live beside it. */
interface LinkForm {
  profileId: string;
  title: string;
  description: string;
  price: string;
  stockLimit: string;
  refundWindowDays: string;
  pricesIncludeVat: boolean;
}

/** API field names → the form's (the price is typed as text, files are upload fields). */
const formField: Record<string, string> = { priceMinor: "price", fileId: "file", coverFileId: "cover" };
const toFormField = (key: string) => {
  const top = key.split(".")[0] ?? key;
  return formField[top] ?? top;
};

/** The modal form that creates a link (link null) or edits one, prefilled. */
export function LinkDialog({
  link,
  profiles,
  rules,
  apiUrl,
  onClose,
  onSaved,
}: {
  link: Link | null;
  profiles: CreatorProfile[];
  rules: PriceRules;
  apiUrl: string | null;
  onClose: () => void;
  onSaved: (link: Link) => void;
}) {
  const t = useTranslations("links");
  const locale = useLocale();
  const ref = useModalDialog("select, input");
  const [currency, setCurrency] = useState<Currency>(link?.currency ?? rules.defaultCurrency);
  const [file, setFile] = useState<UploadValue | null>(link?.file ? uploadValueOf(link.file) : null);
  const [cover, setCover] = useState<UploadValue | null>(
    link?.coverFileId
      ? {
          id: link.coverFileId,
          name: null,
          sizeBytes: null,
          kind: "image",
          thumbnail: link.coverUrl && apiUrl ? `${apiUrl}${link.coverUrl}` : null,
        }
      : null,
  );
  const [uploading, setUploading] = useState({ file: false, cover: false });

  const range = {
    min: formatMoney(rules.priceMinMinor, currency, locale),
    max: formatMoney(rules.priceMaxMinor, currency, locale),
  };

  function messageFor(field: string): string {
    switch (field) {
      case "profileId":
        return t("errors.profile");
      case "title":
        return t("errors.title");
      case "description":
        return t("errors.description");
      case "price":
        return t("errors.price", range);
      case "currency":
        return t("errors.currency");
      case "stockLimit":
        return t("errors.stockLimit");
      case "refundWindowDays":
        return t("errors.refundWindow", { max: REFUND_WINDOW_MAX_DAYS });
      default:
        return t("errors.invalid");
    }
  }

  function priceMinorOf(text: string): number | null {
    return parseAmount(text, currency);
  }

  const { form, register, errors, pending, onSubmit } = useContractForm<
    LinkForm,
    CreateLinkBody | UpdateLinkBody
  >({
    defaultValues: {
      profileId: link?.profileId ?? profiles[0]?.id ?? "",
      title: link?.title ?? "",
      description: link?.description ?? "",
      price: link ? minorToInput(link.priceMinor, link.currency, locale) : "",
      stockLimit: link?.stockLimit == null ? "" : String(link.stockLimit),
      refundWindowDays: String(link?.refundWindowDays ?? REFUND_WINDOW_DEFAULT_DAYS),
      pricesIncludeVat: link?.pricesIncludeVat ?? true,
    },
    schema: link ? updateLinkBodySchema : createLinkBodySchema,
    toBody: (values) => {
      const stockText = values.stockLimit.trim();
      const windowText = values.refundWindowDays.trim();
      const input = {
        profileId: values.profileId,
        title: values.title,
        description: values.description,
        priceMinor: priceMinorOf(values.price) ?? Number.NaN,
        currency,
        fileId: file?.id ?? null,
        coverFileId: cover?.id ?? null,
        stockLimit: stockText === "" ? null : Number(stockText),
        // Empty is not "none": 0 says no refunds, so an empty field is refused like any non-number.
        refundWindowDays: windowText === "" ? Number.NaN : Number(windowText),
        pricesIncludeVat: values.pricesIncludeVat,
      };
      return link ? changedFields(link, input) : input;
    },
    fieldOf: toFormField,
    message: messageFor,
    check: (values): FieldErrors => {
      const priceMinor = priceMinorOf(values.price);
      const outOfRange =
        priceMinor === null || priceMinor < rules.priceMinMinor || priceMinor > rules.priceMaxMinor;
      return outOfRange ? { price: messageFor("price") } : {};
    },
    failed: t("failed"),
    onFailure: (err, shown) => {
      if (shown.form)
        toast.error(t("failed"), { description: err instanceof ApiError ? err.message : undefined });
      return undefined;
    },
    submit: async (body) => {
      const saved = await api(link ? `/links/${link.id}` : "/links", {
        method: link ? "PATCH" : "POST",
        body,
        schema: linkSchema,
      });
      toast.success(link ? t("updated") : t("created"));
      onSaved(saved);
    },
  });

  const busy = uploading.file || uploading.cover;
  const pricesIncludeVat = form.watch("pricesIncludeVat");

  return (
    <dialog
      ref={ref}
      className="card profile-dialog link-dialog"
      aria-labelledby="link-dialog-title"
      onClose={onClose}
    >
      <form className="form" method="post" onSubmit={onSubmit} noValidate>
        <h2 id="link-dialog-title">{link ? t("editTitle") : t("createTitle")}</h2>
        <div className="field">
          <label htmlFor="profileId">{t("profile")}</label>
          <select
            id="profileId"
            {...register("profileId")}
            aria-invalid={Boolean(errors.profileId)}
            aria-describedby={errors.profileId ? "profileId-hint profileId-error" : "profileId-hint"}
          >
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.displayName} (@{p.handle})
              </option>
            ))}
          </select>
          {/* What a creator page shows is otherwise a surprise (issue 17): say it where the profile is chosen. */}
          <small id="profileId-hint" className="muted">
            {t("profileHint")}
          </small>
          {errors.profileId && (
            <small id="profileId-error" className="field-error">
              {errors.profileId}
            </small>
          )}
        </div>
        <Field
          {...register("title")}
          label={t("linkTitle")}
          maxLength={120}
          autoComplete="off"
          error={errors.title}
        />
        <TextAreaField
          {...register("description")}
          label={t("description")}
          rows={3}
          maxLength={5000}
          error={errors.description}
        />
        <div className="link-price-row">
          <Field
            {...register("price")}
            label={t("price")}
            hint={t("priceHint", range)}
            inputMode="decimal"
            autoComplete="off"
            placeholder={minorToInput(10 ** currencyDigits(currency) * 10, currency, locale)}
            error={errors.price}
          />
          <div className="field">
            <label htmlFor="currency">{t("currency")}</label>
            <select
              id="currency"
              name="currency"
              value={currency}
              onChange={(e) => setCurrency(e.currentTarget.value as Currency)}
            >
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Field
          {...register("stockLimit")}
          label={t("stockLimit")}
          hint={t("stockLimitHint")}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          error={errors.stockLimit}
        />
        <Field
          {...register("refundWindowDays")}
          label={t("refundWindow")}
          hint={t("refundWindowHint", { max: REFUND_WINDOW_MAX_DAYS })}
          type="number"
          inputMode="numeric"
          min={0}
          max={REFUND_WINDOW_MAX_DAYS}
          step={1}
          error={errors.refundWindowDays}
        />
        <div className="field">
          <label className="checkbox">
            <input
              type="checkbox"
              {...register("pricesIncludeVat")}
              aria-describedby={
                errors.pricesIncludeVat
                  ? "pricesIncludeVat-hint pricesIncludeVat-error"
                  : "pricesIncludeVat-hint"
              }
            />
            <span>{t("pricesIncludeVat")}</span>
          </label>
          {/* Issue 22: the buyer pays VAT either way; what the creator chooses is whether it is in the price. */}
          <small id="pricesIncludeVat-hint" className="muted">
            {pricesIncludeVat ? t("pricesIncludeVatHint") : t("pricesExcludeVatHint")}
          </small>
          {errors.pricesIncludeVat && (
            <small id="pricesIncludeVat-error" className="field-error">
              {errors.pricesIncludeVat}
            </small>
          )}
        </div>
        <FileUpload
          id="link-file"
          label={t("file")}
          hint={t("fileHint")}
          use="content"
          value={file}
          onChange={setFile}
          onBusyChange={(b) => setUploading((u) => ({ ...u, file: b }))}
          error={errors.file}
        />
        <FileUpload
          id="link-cover"
          label={t("cover")}
          hint={t("coverHint")}
          use="cover"
          value={cover}
          onChange={setCover}
          onBusyChange={(b) => setUploading((u) => ({ ...u, cover: b }))}
          error={errors.cover}
        />
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="actions">
          <SubmitButton pending={pending} disabled={busy} pendingLabel={t("saving")} label={t("save")} />
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {t("cancel")}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Only what the creator changed is sent when editing. */
function changedFields(link: Link, input: Record<keyof typeof formKeys, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(formKeys) as (keyof typeof formKeys)[]) {
    if (input[key] !== link[key]) out[key] = input[key];
  }
  return out;
}

const formKeys = {
  profileId: true,
  title: true,
  description: true,
  priceMinor: true,
  currency: true,
  fileId: true,
  coverFileId: true,
  stockLimit: true,
  refundWindowDays: true,
  pricesIncludeVat: true,
} as const;
