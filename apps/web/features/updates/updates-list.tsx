"use client";

import type { UpdateList } from "@salelink/contracts/updates";
import { useLocale, useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";

/** The creator's updates, newest first: to whom, when, and how the sending went. */
export function UpdatesList({
  list,
  failed,
  reload,
}: {
  list: UpdateList | null;
  failed: boolean;
  reload: () => void;
}) {
  const t = useTranslations("updates");
  const locale = useLocale();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  const number = new Intl.NumberFormat(locale);

  return (
    <section className="aff-section" aria-labelledby="updates-list-title">
      <h2 id="updates-list-title">{t("listTitle")}</h2>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : list === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : list.items.length === 0 ? (
        <p className="card muted">{t("empty")}</p>
      ) : (
        <ul className="updates-list">
          {list.items.map((update) => (
            <li key={update.id} className="card updates-item">
              <div className="updates-item-head">
                <h3>{update.subject}</h3>
                <span className="aff-status" data-status={update.status}>
                  {t(`status.${update.status}`)}
                </span>
              </div>
              <p className="muted">
                <time dateTime={update.createdAt}>{day.format(new Date(update.createdAt))}</time>
                {" · "}
                {update.linkTitle === null ? t("toAll") : t("toLink", { title: update.linkTitle })}
              </p>
              <p>
                {t("counts", {
                  sent: number.format(update.sent),
                  failed: number.format(update.failed),
                  unsubscribed: number.format(update.unsubscribed),
                  recipients: number.format(update.recipients),
                })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
