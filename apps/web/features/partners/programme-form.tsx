"use client";

import type { Link } from "@salelink/contracts";
import {
  PARTNER_DESCRIPTION_MAX,
  PARTNER_LINK_RATES_MAX,
  PARTNER_RATE_MAX_BPS,
  PARTNER_RATE_MIN_BPS,
  PARTNER_TERMS_MAX,
  PARTNER_WINDOW_MAX_DAYS,
  PARTNER_WINDOW_MIN_DAYS,
  type PartnerProgramme,
  partnerJoinModes,
  partnerProgrammeBodySchema,
  partnerProgrammeSchema,
} from "@salelink/contracts/partners";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useMyLinks } from "@/features/links/my-links.ts";
import { ApiError, api } from "@/lib/api.ts";
import { toast } from "@/lib/toast.ts";
import { bpsToPercentInput, percentToBps } from "./partner-format.ts";

const percent = (bps: number) => bps / 100;

/** A per-link rate being edited: the link chosen and the percent typed. */
interface RateRow {
  key: number;
  linkId: string;
  rate: string;
}

/** A whole number typed in a text field; NaN (refused by the contract) for anything else. */
const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/**
 * The creator's programme settings (PUT /partner-programme, the whole settings replaced): on or off,
 * the default rate in whole percents (basis points for the API), the per-link rates among the
 * creator's own links, the attribution window, how partners join, the description and terms.
 */
export function ProgrammeForm({
  programme,
  onSaved,
}: {
  programme: PartnerProgramme;
  onSaved: (saved: PartnerProgramme) => void;
}) {
  const t = useTranslations("partners.settings");
  const id = useId();
  const links = useMyLinks();
  const [rows, setRows] = useState<RateRow[]>(() =>
    programme.linkRates.map((r, key) => ({ key, linkId: r.linkId, rate: bpsToPercentInput(r.rateBps) })),
  );
  const [rowKey, setRowKey] = useState(programme.linkRates.length);

  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: {
      enabled: programme.enabled,
      defaultRateBps: bpsToPercentInput(programme.defaultRateBps),
      windowDays: String(programme.windowDays),
      joinMode: programme.joinMode,
      description: programme.description,
      terms: programme.terms,
    },
    schema: partnerProgrammeBodySchema,
    toBody: (values) => ({
      enabled: values.enabled,
      defaultRateBps: percentToBps(values.defaultRateBps),
      windowDays: wholeNumber(values.windowDays),
      joinMode: values.joinMode,
      description: values.description,
      terms: values.terms,
      linkRates: rows.map((r) => ({ linkId: r.linkId, rateBps: percentToBps(r.rate) })),
    }),
    message: (field, code) => {
      if (field === "defaultRateBps")
        return t("errors.rate", { min: percent(PARTNER_RATE_MIN_BPS), max: percent(PARTNER_RATE_MAX_BPS) });
      if (field === "windowDays")
        return t("errors.window", { min: PARTNER_WINDOW_MIN_DAYS, max: PARTNER_WINDOW_MAX_DAYS });
      if (field === "description") return t("errors.tooLong", { max: PARTNER_DESCRIPTION_MAX });
      if (field === "terms") return t("errors.tooLong", { max: PARTNER_TERMS_MAX });
      if (field === "linkRates")
        return code === "custom"
          ? t("errors.linkTwice")
          : t("errors.linkRate", { min: percent(PARTNER_RATE_MIN_BPS), max: percent(PARTNER_RATE_MAX_BPS) });
      if (field === "joinMode") return t("errors.joinMode");
      return t("failed");
    },
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("failed")),
    submit: async (body) => {
      const saved = await api("/partner-programme", { method: "PUT", body, schema: partnerProgrammeSchema });
      toast.success(t("saved"));
      onSaved(saved);
    },
  });

  const all: Link[] = links.data ?? [];
  const used = new Set(rows.map((r) => r.linkId));
  // Links taken down by moderation cannot be chosen again, unless a rate already names them.
  const choosable = all.filter((l) => l.status !== "removed");
  const free = choosable.filter((l) => !used.has(l.id));
  const titleOf = (linkId: string) => all.find((l) => l.id === linkId)?.title ?? t("unknownLink");

  function addRow() {
    const first = free[0];
    if (!first) return;
    setRows((now) => [...now, { key: rowKey, linkId: first.id, rate: "" }]);
    setRowKey((k) => k + 1);
  }
  const updateRow = (key: number, change: Partial<RateRow>) =>
    setRows((now) => now.map((r) => (r.key === key ? { ...r, ...change } : r)));

  return (
    <form className="form card partners-settings" method="post" onSubmit={onSubmit} noValidate>
      <h2 id={`${id}-title`}>{t("title")}</h2>
      <label className="checkbox partners-switch">
        <input type="checkbox" {...register("enabled")} aria-describedby={`${id}-enabled-hint`} />
        <span>{t("enabled")}</span>
      </label>
      <p id={`${id}-enabled-hint`} className="muted partners-hint">
        {t("enabledHint")}
      </p>
      <div className="grid-2">
        <Field
          {...register("defaultRateBps")}
          label={t("rate")}
          hint={t("rateHint", { min: percent(PARTNER_RATE_MIN_BPS), max: percent(PARTNER_RATE_MAX_BPS) })}
          inputMode="numeric"
          autoComplete="off"
          error={errors.defaultRateBps}
        />
        <Field
          {...register("windowDays")}
          label={t("window")}
          hint={t("windowHint", { min: PARTNER_WINDOW_MIN_DAYS, max: PARTNER_WINDOW_MAX_DAYS })}
          inputMode="numeric"
          autoComplete="off"
          error={errors.windowDays}
        />
      </div>
      <fieldset aria-describedby={errors.joinMode ? `${id}-join-error` : undefined}>
        <legend>{t("joinMode")}</legend>
        <div className="partners-join-modes">
          {partnerJoinModes.map((mode) => (
            <label key={mode} className="checkbox">
              <input type="radio" value={mode} {...register("joinMode")} />
              <span>
                <strong>{t(`join.${mode}`)}</strong> <span className="muted">{t(`joinHint.${mode}`)}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.joinMode && (
          <small id={`${id}-join-error`} className="field-error">
            {errors.joinMode}
          </small>
        )}
      </fieldset>
      <TextAreaField
        {...register("description")}
        label={t("description")}
        hint={t("descriptionHint", { max: PARTNER_DESCRIPTION_MAX })}
        rows={3}
        maxLength={PARTNER_DESCRIPTION_MAX}
        error={errors.description}
      />
      <TextAreaField
        {...register("terms")}
        label={t("terms")}
        hint={t("termsHint")}
        rows={5}
        maxLength={PARTNER_TERMS_MAX}
        error={errors.terms}
      />
      <fieldset
        aria-describedby={[`${id}-links-hint`, errors.linkRates ? `${id}-links-error` : null]
          .filter(Boolean)
          .join(" ")}
      >
        <legend>{t("linkRates")}</legend>
        <p id={`${id}-links-hint`} className="muted partners-hint">
          {links.isError
            ? t("linksFailed")
            : links.data === undefined
              ? t("linksLoading")
              : choosable.length === 0
                ? t("noLinks")
                : t("linkRatesHint")}
        </p>
        {rows.length > 0 && (
          <ul className="partners-link-rates">
            {rows.map((row, i) => (
              <li key={row.key}>
                <div className="field">
                  <label htmlFor={`${id}-link-${row.key}`}>{t("link", { n: i + 1 })}</label>
                  <select
                    id={`${id}-link-${row.key}`}
                    value={row.linkId}
                    onChange={(e) => updateRow(row.key, { linkId: e.target.value })}
                  >
                    {/* A link no longer listed (removed) stays named while its rate is kept. */}
                    {!choosable.some((l) => l.id === row.linkId) && (
                      <option value={row.linkId}>{titleOf(row.linkId)}</option>
                    )}
                    {choosable
                      .filter((l) => l.id === row.linkId || !used.has(l.id))
                      .map((l) => (
                        <option key={l.id} value={l.id}>
                          {l.title}
                        </option>
                      ))}
                  </select>
                </div>
                <div className="field partners-rate-field">
                  <label htmlFor={`${id}-rate-${row.key}`}>{t("linkRate", { n: i + 1 })}</label>
                  <input
                    id={`${id}-rate-${row.key}`}
                    inputMode="numeric"
                    autoComplete="off"
                    value={row.rate}
                    onChange={(e) => updateRow(row.key, { rate: e.target.value })}
                  />
                </div>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={t("removeLinkRate", { title: titleOf(row.linkId) })}
                  onClick={() => setRows((now) => now.filter((r) => r.key !== row.key))}
                >
                  {t("remove")}
                </button>
              </li>
            ))}
          </ul>
        )}
        {free.length > 0 && rows.length < PARTNER_LINK_RATES_MAX && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={addRow}>
            {t("addLinkRate")}
          </button>
        )}
        {errors.linkRates && (
          <small id={`${id}-links-error`} className="field-error">
            {errors.linkRates}
          </small>
        )}
      </fieldset>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="actions">
        <SubmitButton pending={pending} pendingLabel={t("saving")} label={t("save")} />
      </div>
    </form>
  );
}
