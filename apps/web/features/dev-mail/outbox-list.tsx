"use client";

import { type DevMailSummary, devMailListSchema } from "@salelink/contracts";
import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { QueryProvider } from "@/components/ui/query-provider.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";

type State =
  | { kind: "loading" }
  | { kind: "off" }
  | { kind: "error" }
  | { kind: "ready"; messages: DevMailSummary[] };

/** A developer's page, not a buyer's: it brings its own client cache. */
export function OutboxList() {
  return (
    <QueryProvider>
      <Outbox />
    </QueryProvider>
  );
}

/**
 * The sandbox mail provider keeps e-mails instead of sending them; this page shows them so a
 * newcomer can click the verification and reset links. The API serves it only with DEV_ROUTES on and
 * to a client on its own machine; anything else answers 404, shown as "not available here".
 */
function Outbox() {
  const t = useTranslations("devMail");
  const locale = useLocale();
  const query = useQuery({
    queryKey: queryKeys.devMail,
    queryFn: ({ signal }) => api("/dev/mail?limit=50", { schema: devMailListSchema, signal }),
  });
  // "Refresh" shows "loading" again, then the outbox as it is now.
  const state: State = query.isFetching
    ? { kind: "loading" }
    : query.isError
      ? query.error instanceof ApiError && query.error.status === 404
        ? { kind: "off" }
        : { kind: "error" }
      : query.data
        ? { kind: "ready", messages: query.data.messages }
        : { kind: "loading" };
  const load = () => void query.refetch();

  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <section>
      <div className="cta-row">
        <button type="button" className="btn btn-ghost btn-sm" onClick={load}>
          {t("refresh")}
        </button>
      </div>
      {state.kind === "loading" && <p className="muted">{t("loading")}</p>}
      {state.kind === "off" && <p className="empty">{t("off")}</p>}
      {state.kind === "error" && <p className="field-error">{t("error")}</p>}
      {state.kind === "ready" && state.messages.length === 0 && <p className="empty">{t("empty")}</p>}
      {state.kind === "ready" && state.messages.length > 0 && (
        <ol className="outbox">
          {state.messages.map((m) => (
            <li key={m.id} className="card" data-testid="outbox-message">
              <p className="muted">
                {date.format(new Date(m.createdAt))} · {t("to")} <strong>{m.to}</strong> · {m.locale}
              </p>
              <h2>{m.subject}</h2>
              {m.links.map((link) => (
                <a key={link} href={link} className="outbox-link">
                  {link}
                </a>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
