"use client";

import { type Locale, locales } from "@salelink/contracts/locales";
import {
  type MaintenanceStatus,
  maintenanceStatusSchema,
  type SetMaintenanceBody,
  setMaintenanceBodySchema,
} from "@salelink/contracts/maintenance";
import { useQueryClient } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { TextAreaField } from "@/components/ui/field.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { MaintenanceConfirmDialog } from "./maintenance-confirm-dialog.tsx";
import "./maintenance.css";

type Messages = Record<Locale, string>;
type Pending = "switch" | "message" | null;

const MESSAGE_MAX = 500;
const noMessages: Messages = { en: "", fr: "", es: "" };
const messagesOf = (status: MaintenanceStatus): Messages => ({ ...noMessages, ...status.message });

/** Only the languages given are sent: a language left empty shows the standard text on /maintenance. */
function messageBody(messages: Messages): NonNullable<SetMaintenanceBody["message"]> {
  const out: NonNullable<SetMaintenanceBody["message"]> = {};
  for (const locale of locales) {
    const text = messages[locale].trim();
    if (text) out[locale] = text;
  }
  return out;
}

/**
 * The platform-wide maintenance switch. Visitors are sent to /maintenance while it is on; admins keep
 * using the site, so this screen stays reachable to switch it off again.
 */
export function MaintenanceScreen() {
  const t = useTranslations("adminOverview.maintenance");
  const locale = useLocale();
  const queryClient = useQueryClient();
  const { data: status, failed } = useApiQuery(
    queryKeys.admin.maintenance,
    "/maintenance",
    maintenanceStatusSchema,
  );
  /** The messages as edited; null: as the API holds them. */
  const [edited, setMessages] = useState<Messages | null>(null);
  const messages = edited ?? (status ? messagesOf(status) : noMessages);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState<Pending>(null);

  const failure = (err: unknown) =>
    err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("actionFailed");

  /** Sends the switch (or the same state with a new message); answers an error to show, or null. */
  async function send(
    maintenance: boolean,
    kind: Exclude<Pending, null>,
    reason?: string,
  ): Promise<string | null> {
    const parsed = setMaintenanceBodySchema.safeParse({
      maintenance,
      message: messageBody(messages),
      ...(reason ? { reason } : {}),
    });
    if (!parsed.success) {
      return parsed.error.issues.some((issue) => issue.path[0] === "reason")
        ? t("reasonInvalid")
        : t("messageInvalid", { max: MESSAGE_MAX });
    }
    setPending(kind);
    try {
      const answer = await api("/admin/maintenance", {
        method: "PUT",
        body: parsed.data,
        schema: maintenanceStatusSchema,
      });
      queryClient.setQueryData(queryKeys.admin.maintenance, answer);
      setMessages(null);
      if (kind === "message") toast.success(t("messageSaved"));
      else toast.success(answer.maintenance ? t("switchedOn") : t("switchedOff"));
      return null;
    } catch (err) {
      const message = failure(err);
      toast.error(kind === "message" ? t("messageFailed") : t("switchFailed"), { description: message });
      return message;
    } finally {
      setPending(null);
    }
  }

  function onSaveMessage(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status) void send(status.maintenance, "message");
  }

  if (failed) {
    return (
      <section className="admin-console">
        <h1>{t("title")}</h1>
        <p className="field-error" role="alert">
          {t("loadFailed")}
        </p>
      </section>
    );
  }

  const since =
    status?.lastUpdated &&
    new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(
      new Date(status.lastUpdated),
    );
  const on = status?.maintenance ?? false;

  return (
    <section className="admin-console admin-maintenance">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {status === null ? (
        <p aria-busy="true">{t("loading")}</p>
      ) : (
        <>
          <div className="card admin-maintenance-state" data-on={on}>
            <h2>{t("stateTitle")}</h2>
            <p className="admin-maintenance-now" role="status">
              <span className={`admin-switch-badge admin-switch-${on ? "on" : "off"}`}>
                {on ? t("on") : t("off")}
              </span>
              <span className="muted">{since ? t("since", { date: since }) : t("neverSwitched")}</span>
            </p>
            <p className="muted">{on ? t("onExplained") : t("offExplained")}</p>
            <div className="actions">
              <button
                type="button"
                className={`btn ${on ? "btn-primary" : "btn-danger"}`}
                disabled={pending !== null}
                aria-busy={pending === "switch"}
                onClick={() => setConfirming(true)}
              >
                {pending === "switch" ? t("switching") : on ? t("switchOff") : t("switchOn")}
              </button>
            </div>
          </div>
          <form className="card form admin-maintenance-messages" onSubmit={onSaveMessage} noValidate>
            <h2>{t("messageTitle")}</h2>
            <p className="muted">{t("messageIntro")}</p>
            {locales.map((l) => (
              <TextAreaField
                key={l}
                name={`message-${l}`}
                label={t(`messageIn.${l}`)}
                rows={2}
                maxLength={MESSAGE_MAX}
                lang={l}
                value={messages[l]}
                onChange={(event) =>
                  setMessages((now) => ({ ...(now ?? messages), [l]: event.target.value }))
                }
              />
            ))}
            <div className="actions">
              <button
                type="submit"
                className="btn btn-ghost"
                disabled={pending !== null}
                aria-busy={pending === "message"}
              >
                {pending === "message" ? t("savingMessage") : t("saveMessage")}
              </button>
            </div>
          </form>
        </>
      )}
      {confirming && status && (
        <MaintenanceConfirmDialog
          turningOn={!status.maintenance}
          messages={messageBody(messages)}
          onClose={() => setConfirming(false)}
          onConfirm={(reason) => send(!status.maintenance, "switch", reason)}
        />
      )}
    </section>
  );
}
