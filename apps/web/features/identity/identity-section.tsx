"use client";

import { type IdentityState, identityStateSchema } from "@salelink/contracts/identity";
import { useLocale, useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { IdentityFormDialog } from "./identity-form-dialog.tsx";
import { awaitingDecision, identityView, RETURN_PARAM, RETURN_VALUE } from "./identity-state.ts";
import "./identity.css";

/** Back from the provider, the decision is asked for this often, this many times, before giving up. */
const POLL_MS = 1500;
const MAX_POLLS = 10;

type Waiting = "no" | "polling" | "timedOut";

/** The callback's `?identity=done` has done its job once read: a reload must not wait again. */
function dropReturnParam() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(RETURN_PARAM)) return;
  url.searchParams.delete(RETURN_PARAM);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

/**
 * "Verify account" (spec section 2), in the wallet: where the identity check stands, with the next
 * step for each state, the daily limit, and the form that opens a session at the provider.
 */
export function IdentitySection({ onApproved }: { onApproved?: () => void }) {
  const t = useTranslations("identity");
  const {
    data: state,
    failed,
    reload: load,
  } = useApiQuery(queryKeys.identity, "/identity", identityStateSchema);
  const seenStatus = useRef<IdentityState["status"] | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [waiting, setWaiting] = useState<Waiting>("no");
  const [polls, setPolls] = useState(0);

  useEffect(() => {
    if (new URLSearchParams(window.location.search).get(RETURN_PARAM) === RETURN_VALUE) setWaiting("polling");
  }, []);

  // An approval seen while the page is open (a decision that came after the person was back) lifts
  // the withdrawal's identity step: the page around is told, once.
  useEffect(() => {
    if (!state) return;
    const before = seenStatus.current;
    seenStatus.current = state.status;
    if (before !== null && before !== "approved" && state.status === "approved") onApproved?.();
  }, [state, onApproved]);

  // The decision comes by webhook, a moment after the person is back: ask again a few times.
  useEffect(() => {
    if (waiting !== "polling" || state === null) return;
    if (!awaitingDecision.has(state.status)) {
      setWaiting("no");
      dropReturnParam();
      return;
    }
    if (polls >= MAX_POLLS) {
      setWaiting("timedOut");
      dropReturnParam();
      return;
    }
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      load();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, state, polls, load]);

  return (
    <section id="identity" className="wallet-section identity" aria-labelledby="identity-title">
      <div className="identity-head">
        <h2 id="identity-title">{t("title")}</h2>
        {state?.provider === "sandbox" && <span className="identity-badge">{t("sandboxBadge")}</span>}
      </div>
      {state?.provider === "sandbox" && <p className="sandbox-note identity-sandbox">{t("sandboxNote")}</p>}
      {state === null ? (
        failed ? (
          <div role="alert" className="wallet-error">
            <p className="field-error">{t("loadFailed")}</p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
              {t("retry")}
            </button>
          </div>
        ) : (
          <p aria-busy="true" className="muted">
            {t("loading")}
          </p>
        )
      ) : waiting === "polling" && awaitingDecision.has(state.status) ? (
        <div className="card identity-card identity-waiting" role="status">
          <span className="identity-spinner" aria-hidden="true" />
          <div>
            <p className="identity-title">{t("waiting.title")}</p>
            <p className="muted">{t("waiting.text")}</p>
          </div>
        </div>
      ) : (
        <IdentityCard
          state={state}
          timedOut={waiting === "timedOut"}
          onStart={() => setFormOpen(true)}
          onCheckAgain={() => {
            setWaiting("no");
            load();
          }}
        />
      )}
      {formOpen && state && (
        <IdentityFormDialog
          namesOnFile={state.namesOnFile}
          provider={state.provider}
          onClose={() => setFormOpen(false)}
          onRefused={() => load()}
        />
      )}
    </section>
  );
}

function IdentityCard({
  state,
  timedOut,
  onStart,
  onCheckAgain,
}: {
  state: IdentityState;
  timedOut: boolean;
  onStart: () => void;
  onCheckAgain: () => void;
}) {
  const t = useTranslations("identity");
  const locale = useLocale();
  const view = identityView(state.status);
  const canStart = state.sessionsLeftToday > 0;
  const when = state.nextSessionAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short" }).format(
        new Date(state.nextSessionAt),
      )
    : null;

  /** Opens the form, or says when it can be opened again once today's checks are used. */
  const start = (label: string) =>
    canStart ? (
      <button type="button" className="btn btn-primary" onClick={onStart}>
        {label}
      </button>
    ) : (
      <p className="identity-limit-reached" role="note">
        {when ? t("limitReachedUntil", { date: when }) : t("limitReachedToday")}
      </p>
    );
  /** The unfinished session is taken up where it was left, at the provider. */
  const resume = (label: string) =>
    state.session ? (
      <a className="btn btn-primary" href={state.session.url}>
        {label}
      </a>
    ) : (
      start(label)
    );

  const content: { title: string; text: string; action: ReactNode } = (() => {
    switch (view) {
      case "none":
        return { title: t("none.title"), text: t("none.text"), action: start(t("none.action")) };
      case "inProgress":
        return {
          title: t("inProgress.title"),
          text: t("inProgress.text"),
          action: resume(t("inProgress.action")),
        };
      case "review":
        return { title: t("review.title"), text: t("review.text"), action: null };
      case "approved":
        return { title: t("approved.title"), text: t("approved.text"), action: null };
      case "declined":
        return { title: t("declined.title"), text: t("declined.text"), action: start(t("declined.action")) };
      case "resubmission":
        return {
          title: t("resubmission.title"),
          text: t("resubmission.text"),
          action: resume(t("resubmission.action")),
        };
      case "expired":
        return { title: t("expired.title"), text: t("expired.text"), action: start(t("expired.action")) };
    }
  })();

  return (
    <div className="card identity-card" data-view={view} aria-live="polite">
      <span className={`identity-icon identity-icon-${view}`} aria-hidden="true">
        {view === "approved" ? "✓" : view === "declined" ? "!" : view === "review" ? "…" : "ID"}
      </span>
      <div className="identity-body">
        <p className="identity-title">{content.title}</p>
        {state.reason && (view === "declined" || view === "resubmission") && (
          <p className="identity-reason">
            <strong>{t("reasonLabel")}</strong> {state.reason}
          </p>
        )}
        <p className="muted">{content.text}</p>
        {timedOut && (
          <div className="notice identity-late">
            <p>{t("waiting.late")}</p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={onCheckAgain}>
              {t("waiting.checkAgain")}
            </button>
          </div>
        )}
        {content.action && <div className="actions identity-actions">{content.action}</div>}
        {view !== "approved" && (
          <p className="muted identity-limit">
            {t("limit", { perDay: state.sessionsPerDay, left: state.sessionsLeftToday })}
          </p>
        )}
      </div>
    </div>
  );
}
