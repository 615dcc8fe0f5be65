"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import {
  type MyMembership,
  membershipResultSchema,
  type OpenProgramme,
  type Programmes,
  programmesSchema,
} from "@salelink/contracts/partners";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { ClaimCard } from "@/features/affiliates/claim-card.tsx";
import { hasMoney } from "@/features/affiliates/money-list.ts";
import { ApiError, api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { toast } from "@/lib/toast.ts";
import { creatorLabel, formatRate } from "./partner-format.ts";

/**
 * /account/programmes: the creators' programmes I belong to or applied to, those I can join, and my
 * commissions past their hold, claimed into the wallet in one go.
 */
export function ProgrammesPage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("partners.programmes");
  const queryClient = useQueryClient();
  const { data, failed, reload } = useApiQuery(queryKeys.programmes.list, "/programmes", programmesSchema);
  // A join or a claim changes the lists and the figures; a claim the wallet too.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.programmes.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
  };

  return (
    <section className="affiliates partners">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : data === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <>
          <div className="aff-top">
            <PartnerClaim programmes={data} defaultCurrency={defaultCurrency} onClaimed={refresh} />
          </div>
          <Memberships memberships={data.memberships} />
          <OpenProgrammes open={data.open} onJoined={refresh} />
        </>
      )}
    </section>
  );
}

/** POST /programmes/claim, as the affiliates page's claim (ClaimCard); a refusal toasts the API's words. */
function PartnerClaim({
  programmes,
  defaultCurrency,
  onClaimed,
}: {
  programmes: Programmes;
  defaultCurrency: Currency;
  onClaimed: () => void;
}) {
  const t = useTranslations("partners.programmes");
  return (
    <ClaimCard
      path="/programmes/claim"
      id="partners-claim"
      claimable={programmes.claimable}
      defaultCurrency={defaultCurrency}
      apiMessageOnFailure
      words={{
        title: t("claimTitle"),
        hint: hasMoney(programmes.claimable) ? t("claimHint") : t("claimNothing"),
        button: (amount) => t("claimButton", { amount }),
        buttonNone: t("claimButtonNone"),
        claiming: t("claiming"),
        done: (amount) => t("claimDone", { amount }),
        failed: t("claimFailed"),
      }}
      onClaimed={onClaimed}
    />
  );
}

function Memberships({ memberships }: { memberships: MyMembership[] }) {
  const t = useTranslations("partners.programmes");
  const locale = useLocale();
  return (
    <section className="aff-section" aria-labelledby="partners-mine-title">
      <h2 id="partners-mine-title">{t("mineTitle")}</h2>
      {memberships.length === 0 ? (
        <div className="card empty-state aff-empty">
          <p>
            <strong>{t("mineEmpty")}</strong>
          </p>
          <p className="muted">{t("mineEmptyHint")}</p>
        </div>
      ) : (
        <ul className="partners-cards">
          {memberships.map((m) => {
            const name = creatorLabel(m.creator) ?? t("unnamedCreator");
            return (
              <li
                key={m.id}
                className="card partners-card"
                aria-labelledby={`membership-${m.id}`}
                data-status={m.status}
              >
                <div className="aff-campaign-head">
                  <h3 id={`membership-${m.id}`}>{name}</h3>
                  <span className="aff-status" data-status={m.status}>
                    {t(`statuses.${m.status}`)}
                  </span>
                </div>
                {m.status === "applied" && <p className="muted partners-hint">{t("waiting")}</p>}
                {m.status === "active" && !m.programmeEnabled && (
                  <p className="muted partners-hint">{t("programmeOff")}</p>
                )}
                <dl className="aff-figures">
                  <div>
                    <dt>{t("code")}</dt>
                    <dd>
                      <code>{m.code}</code>
                    </dd>
                  </div>
                  <div>
                    <dt>{t("rate")}</dt>
                    <dd>{formatRate(m.defaultRateBps, locale)}</dd>
                  </div>
                  <div>
                    <dt>{t("window")}</dt>
                    <dd>{t("days", { count: m.windowDays })}</dd>
                  </div>
                </dl>
                {m.status === "active" && (
                  <div className="actions">
                    <Link className="btn btn-primary btn-sm" href={`/account/programmes/${m.id}`}>
                      {t("open", { name })}
                    </Link>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function OpenProgrammes({ open, onJoined }: { open: OpenProgramme[]; onJoined: () => void }) {
  const t = useTranslations("partners.programmes");
  const locale = useLocale();
  const [busy, setBusy] = useState<string | null>(null);

  async function join(programme: OpenProgramme, name: string) {
    setBusy(programme.creator.id);
    try {
      const result = await api(`/programmes/${programme.creator.id}/join`, {
        method: "POST",
        schema: membershipResultSchema,
      });
      toast.success(result.status === "active" ? t("joined", { name }) : t("applied", { name }));
    } catch (err) {
      toast.error(err instanceof ApiError && err.body ? err.body.message : t("joinFailed"));
    } finally {
      setBusy(null);
      onJoined();
    }
  }

  return (
    <section className="aff-section" aria-labelledby="partners-open-title">
      <h2 id="partners-open-title">{t("openTitle")}</h2>
      {open.length === 0 ? (
        <p className="muted">{t("openEmpty")}</p>
      ) : (
        <ul className="partners-cards">
          {open.map((p) => {
            const name = creatorLabel(p.creator) ?? t("unnamedCreator");
            return (
              <li key={p.creator.id} className="card partners-card" aria-labelledby={`open-${p.creator.id}`}>
                <div className="aff-campaign-head">
                  <h3 id={`open-${p.creator.id}`}>{name}</h3>
                  {p.creator.profileId && (
                    <Link href={`/c/${p.creator.profileId}`} className="muted">
                      {t("creatorPage")}
                    </Link>
                  )}
                </div>
                {p.description && <p className="partners-description">{p.description}</p>}
                <dl className="aff-figures">
                  <div>
                    <dt>{t("rate")}</dt>
                    <dd>{formatRate(p.defaultRateBps, locale)}</dd>
                  </div>
                  <div>
                    <dt>{t("window")}</dt>
                    <dd>{t("days", { count: p.windowDays })}</dd>
                  </div>
                </dl>
                <div className="actions">
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={busy === p.creator.id}
                    aria-busy={busy === p.creator.id}
                    aria-label={t(p.joinMode === "open" ? "joinLabel" : "applyLabel", { name })}
                    onClick={() => join(p, name)}
                  >
                    {p.joinMode === "open" ? t("join") : t("apply")}
                  </button>
                  {p.joinMode === "approval" && <span className="muted partners-hint">{t("applyHint")}</span>}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
