"use client";

import {
  type NotificationSettings,
  notificationSettingsBodySchema,
  notificationSettingsSavedSchema,
  notificationSettingsSchema,
  saleNotificationModes,
} from "@salelink/contracts/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { SubmitButton } from "@/components/ui/submit-button.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { useContractForm } from "@/components/ui/use-contract-form.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";

/** How the creator hears of their sales (issue 21): an e-mail as they happen, a daily digest, or none. */
export function NotificationsSection() {
  const t = useTranslations("settings.notifications");
  const queryClient = useQueryClient();
  const { data, failed, reload } = useApiQuery(
    queryKeys.notifications,
    "/profile/notifications",
    notificationSettingsSchema,
  );

  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t("title")}</h2>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : data === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <NotificationsForm
          // Saved: the form starts again from what the API kept.
          key={data.saleNotifications}
          settings={data}
          onSaved={(saved) => queryClient.setQueryData<NotificationSettings>(queryKeys.notifications, saved)}
        />
      )}
    </section>
  );
}

function NotificationsForm({
  settings,
  onSaved,
}: {
  settings: NotificationSettings;
  onSaved: (saved: NotificationSettings) => void;
}) {
  const t = useTranslations("settings.notifications");
  const { register, errors, pending, onSubmit } = useContractForm({
    defaultValues: { saleNotifications: settings.saleNotifications },
    schema: notificationSettingsBodySchema,
    toBody: (values) => values,
    message: () => t("choose"),
    failed: t("failed"),
    submit: async (body) => {
      const { message, ...saved } = await api("/profile/notifications", {
        method: "PUT",
        body,
        schema: notificationSettingsSavedSchema,
      });
      toast.success(message);
      onSaved(saved);
    },
  });

  return (
    <form className="form" method="post" onSubmit={onSubmit} noValidate>
      <fieldset aria-describedby={errors.saleNotifications ? "notifications-error" : undefined}>
        <legend>{t("legend")}</legend>
        {saleNotificationModes.map((mode) => (
          <label key={mode} className="checkbox">
            <input type="radio" value={mode} {...register("saleNotifications")} />
            <span>
              <strong>{t(`mode.${mode}`)}</strong> <span className="muted">{t(`hint.${mode}`)}</span>
            </span>
          </label>
        ))}
        {errors.saleNotifications && (
          <small id="notifications-error" className="field-error">
            {errors.saleNotifications}
          </small>
        )}
      </fieldset>
      {errors.form && (
        <p className="field-error" role="alert">
          {errors.form}
        </p>
      )}
      <SubmitButton pending={pending} pendingLabel={t("saving")} label={t("save")} />
    </form>
  );
}
