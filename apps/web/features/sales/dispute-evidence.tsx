"use client";

import type { DisputeView } from "@salelink/contracts/disputes";
import { useTranslations } from "next-intl";
import { useId } from "react";
import { evidenceFields, evidenceState } from "./dispute-state.ts";

/**
 * The evidence as the platform assembled it for the buyer's bank, field by field, and where it
 * stands: being assembled (it leaves within the hour), sent, refused by the provider, or never sent
 * because the dispute closed first. Written in English, for the card issuer.
 */
export function DisputeEvidence({
  dispute,
  when,
}: {
  dispute: DisputeView;
  when: (iso: string | null) => string;
}) {
  const t = useTranslations("sales.disputes.evidence");
  const id = useId();
  const state = evidenceState(dispute);
  return (
    <section className="sale-dispute-evidence" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="sale-dispute-subtitle">
        {t("title")}
      </h4>
      {state.kind === "failed" ? (
        <p className="field-error" role="alert">
          {t("failed", { failure: state.failure })}
        </p>
      ) : (
        <p className="notice" role="status">
          {state.kind === "sent"
            ? t("sent", { date: when(state.at) })
            : state.kind === "assembling"
              ? t("assembling")
              : t("notSent")}
        </p>
      )}
      {dispute.evidence === null ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <>
          <p className="muted">{t("english")}</p>
          <dl className="sale-evidence">
            {evidenceFields(dispute.evidence).map(({ field, text }) => (
              <div key={field}>
                <dt>{t(`fields.${field}`)}</dt>
                <dd className="sale-dispute-text">{text}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}
