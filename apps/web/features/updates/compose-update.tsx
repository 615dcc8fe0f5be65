"use client";

import { type Locale, locales } from "@salelink/contracts/locales";
import {
  UPDATE_BODY_MAX,
  UPDATE_SUBJECT_MAX,
  type UpdateAudience,
  type UpdateComposeBody,
  type UpdateList,
  updateAudienceSchema,
  updateComposeBodySchema,
  updateViewSchema,
} from "@salelink/contracts/updates";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useId } from "react";
import { Field, TextAreaField } from "@/components/ui/field.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { useMyLinks } from "@/features/links/my-links.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";

interface ComposeValues {
  subject: string;
  body: string;
  /** "" for every link. */
  linkId: string;
  locale: Locale;
}

/**
 * The update's form (POST /updates): subject, plain text, the buyers of one link or of all, and the
 * language it is written in; who it would reach, counted by the API as the choice changes.
 */
export function ComposeUpdate({ remainingToday }: { remainingToday: number | null }) {
  const t = useTranslations("updates");
  const id = useId();
  const uiLocale = useLocale();
  const queryClient = useQueryClient();
  const links = useMyLinks();
  const defaultLocale = (locales as readonly string[]).includes(uiLocale) ? (uiLocale as Locale) : "en";

  const { form, register, errors, pending, onSubmit } = useContractForm<ComposeValues, UpdateComposeBody>({
    defaultValues: { subject: "", body: "", linkId: "", locale: defaultLocale },
    schema: updateComposeBodySchema,
    toBody: (values) => ({
      subject: values.subject,
      body: values.body,
      linkId: values.linkId === "" ? null : values.linkId,
      locale: values.locale,
    }),
    message: (field) => {
      if (field === "subject") return t("errors.subject", { max: UPDATE_SUBJECT_MAX });
      if (field === "body") return t("errors.body", { max: UPDATE_BODY_MAX });
      if (field === "linkId") return t("errors.link");
      return t("failed");
    },
    failed: (err) => (err instanceof ApiError && err.body ? err.body.message : t("failed")),
    submit: async (body) => {
      const sent = await api("/updates", { method: "POST", body, schema: updateViewSchema });
      toast.success(t("sent"));
      form.reset({ subject: "", body: "", linkId: body.linkId ?? "", locale: body.locale });
      queryClient.setQueryData<UpdateList>(
        queryKeys.updates.list,
        (now) => now && { items: [sent, ...now.items], remainingToday: Math.max(0, now.remainingToday - 1) },
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.updates.list });
    },
  });

  const linkId = form.watch("linkId");
  const audience = useQuery({
    queryKey: queryKeys.updates.audience(linkId),
    queryFn: ({ signal }) =>
      api(`/updates/audience${linkId ? `?linkId=${encodeURIComponent(linkId)}` : ""}`, {
        schema: updateAudienceSchema,
        signal,
      }),
  });
  const reach: UpdateAudience | undefined = audience.data;
  const exhausted = remainingToday === 0;

  return (
    <form
      className="form card updates-compose"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>{t("composeTitle")}</h2>
      <div className="field">
        <label htmlFor={`${id}-link`}>{t("audience")}</label>
        <select id={`${id}-link`} {...register("linkId")} disabled={!links.data}>
          <option value="">{t("allLinks")}</option>
          {(links.data ?? [])
            .filter((l) => l.salesCount > 0)
            .map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
        </select>
        {reach && (
          <small className="muted" aria-live="polite">
            {t("recipients", { count: reach.recipients })}
            {reach.unsubscribed > 0 && ` ${t("unsubscribedNote", { count: reach.unsubscribed })}`}
          </small>
        )}
        {errors.linkId && <small className="field-error">{errors.linkId}</small>}
      </div>
      <Field
        {...register("subject")}
        id={`${id}-subject`}
        label={t("subject")}
        maxLength={UPDATE_SUBJECT_MAX}
        error={errors.subject}
      />
      <TextAreaField
        {...register("body")}
        id={`${id}-body`}
        label={t("body")}
        rows={8}
        maxLength={UPDATE_BODY_MAX}
        hint={t("bodyHint")}
        error={errors.body}
      />
      <div className="field">
        <label htmlFor={`${id}-locale`}>{t("language")}</label>
        <select id={`${id}-locale`} {...register("locale")} aria-describedby={`${id}-locale-hint`}>
          {locales.map((l) => (
            <option key={l} value={l}>
              {t(`languages.${l}`)}
            </option>
          ))}
        </select>
        <small id={`${id}-locale-hint`} className="muted">
          {t("languageHint")}
        </small>
      </div>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      {remainingToday !== null && <p className="muted">{t("remaining", { count: remainingToday })}</p>}
      <div className="actions">
        <SubmitButton
          pending={pending}
          pendingLabel={t("sending")}
          label={t("send")}
          disabled={exhausted || reach?.recipients === 0}
        />
      </div>
    </form>
  );
}
