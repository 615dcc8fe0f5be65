"use client";

import {
  type IdentitySessionStatus,
  type SandboxIdentityDecisionBody,
  sandboxIdentitySessionSchema,
} from "@salelink/contracts/identity";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { ErrorView } from "@/components/ui/error-view.tsx";
import { QueryProvider } from "@/components/ui/query-provider.tsx";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { RETURN_PARAM, RETURN_VALUE } from "./identity-state.ts";

type Outcome = SandboxIdentityDecisionBody["outcome"];
type Phase = "choosing" | "sending" | "waiting" | "leaving";

/** The decision reaches us as a signed webhook a moment after it is sent: asked for this often, at most this long. */
const POLL_MS = 700;
const WAIT_MS = 10_000;

/** Decisions that end a check; a resubmission request or a review can still be decided. */
const final: ReadonlySet<IdentitySessionStatus> = new Set(["approved", "declined", "expired", "abandoned"]);

const sessionPath = (id: string) => `/identity/sandbox/sessions/${encodeURIComponent(id)}`;

/**
 * The sandbox identity provider's page: instead of photographing a document, the person picks the
 * check's outcome. The sandbox then sends the same signed decision webhook Veriff would, and the
 * person goes back to the wallet, as from Veriff.
 */
export function SandboxIdentity({ id }: { id: string }) {
  // The sandbox provider's own page, not a buyer's: it brings its own client cache.
  return (
    <QueryProvider>
      <SandboxSession id={id} />
    </QueryProvider>
  );
}

function SandboxSession({ id }: { id: string }) {
  const t = useTranslations("identity.sandbox");
  const te = useTranslations("errors");
  const locale = useLocale();
  const router = useRouter();
  const query = useQuery({
    queryKey: queryKeys.sandboxIdentity(id),
    queryFn: ({ signal }) => api(sessionPath(id), { schema: sandboxIdentitySessionSchema, signal }),
  });
  const session = query.data ?? null;
  const loadError =
    query.isError && !query.isFetching
      ? query.error instanceof ApiError && query.error.status === 404
        ? "notFound"
        : "failed"
      : null;
  const load = () => void query.refetch();
  const [reason, setReason] = useState(() => t("defaultReason"));
  const [phase, setPhase] = useState<Phase>("choosing");
  const [chosen, setChosen] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  function backToWallet() {
    setPhase("leaving");
    router.push(`/account/wallet?${RETURN_PARAM}=${RETURN_VALUE}#identity`);
  }

  async function decide(outcome: Outcome) {
    const before = session?.status;
    setChosen(outcome);
    setError(null);
    setPhase("sending");
    const body: SandboxIdentityDecisionBody =
      outcome === "approved" ? { outcome } : { outcome, ...(reason.trim() ? { reason: reason.trim() } : {}) };
    try {
      await api(`${sessionPath(id)}/decision`, {
        method: "POST",
        body,
        // 202: accepted; what it says does not matter, the decision is read back below.
        schema: z.unknown(),
      });
    } catch (err) {
      setPhase("choosing");
      setError(err instanceof ApiError && err.body && err.status < 500 ? err.body.message : t("failed"));
      return;
    }
    setPhase("waiting");
    // Back to the wallet once the webhook has been applied, so the wallet shows the decision at
    // once; after WAIT_MS the wallet itself waits for it.
    const until = Date.now() + WAIT_MS;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const current = await api(sessionPath(id), { schema: sandboxIdentitySessionSchema }).catch(() => null);
      if (current && current.status !== before) break;
    }
    backToWallet();
  }

  if (loadError === "notFound")
    return <ErrorView status={404} message={te("notFound")} back={te("goBack")} />;

  const created = session
    ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short" }).format(
        new Date(session.createdAt),
      )
    : null;
  const decided = session !== null && final.has(session.status);
  const busy = phase !== "choosing";

  return (
    <main className="container section narrow identity-sandbox-page">
      <p className="identity-badge">{t("badge")}</p>
      <h1>{t("title")}</h1>
      <div className="identity-sandbox-warning" role="note">
        <strong>{t("warningTitle")}</strong>
        <span>{t("warningText")}</span>
      </div>
      {loadError === "failed" ? (
        <div role="alert" className="wallet-error">
          <p className="field-error">{t("loadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : session === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : (
        <div className="card identity-sandbox-card">
          <dl className="identity-person">
            <div>
              <dt>{t("givenName")}</dt>
              <dd>{session.firstName}</dd>
            </div>
            <div>
              <dt>{t("lastName")}</dt>
              <dd>{session.lastName}</dd>
            </div>
            <div>
              <dt>{t("started")}</dt>
              <dd>
                <time dateTime={session.createdAt}>{created}</time>
              </dd>
            </div>
          </dl>
          {decided && phase === "choosing" ? (
            <div className="identity-sandbox-decided">
              <p className="notice">{t("alreadyDecided")}</p>
              <Link className="btn btn-primary" href="/account/wallet#identity">
                {t("backToWallet")}
              </Link>
            </div>
          ) : busy ? (
            <p className="identity-sandbox-progress" role="status">
              <span className="identity-spinner" aria-hidden="true" />
              {phase === "sending"
                ? t("sending")
                : phase === "waiting"
                  ? t("waitingWebhook")
                  : t("returning")}
            </p>
          ) : (
            <fieldset className="identity-sandbox-choices">
              <legend>{t("choose")}</legend>
              <div className="field">
                <label htmlFor="sandbox-reason">{t("reason")}</label>
                <input
                  id="sandbox-reason"
                  name="reason"
                  value={reason}
                  maxLength={200}
                  aria-describedby="sandbox-reason-hint"
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <small id="sandbox-reason-hint" className="muted">
                  {t("reasonHint")}
                </small>
              </div>
              {error && (
                <p className="field-error" role="alert">
                  {error}
                </p>
              )}
              <div className="actions">
                <button type="button" className="btn btn-primary" onClick={() => decide("approved")}>
                  {t("approve")}
                </button>
                <button type="button" className="btn btn-danger" onClick={() => decide("declined")}>
                  {t("decline")}
                </button>
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={() => decide("resubmission_requested")}
                >
                  {t("resubmit")}
                </button>
              </div>
            </fieldset>
          )}
          {chosen && busy && <p className="muted identity-sandbox-chosen">{t(`chosen.${chosen}`)}</p>}
        </div>
      )}
    </main>
  );
}
