"use client";

import type { DisputeView } from "@salelink/contracts/disputes";
import type { SaleView } from "@salelink/contracts/refunds";
import { useTranslations } from "next-intl";
import { useId } from "react";
import { DisputeEvidence } from "./dispute-evidence.tsx";
import { DisputeNoteForm } from "./dispute-note-form.tsx";
import { heldParts, holdsAnything, knownReason } from "./dispute-state.ts";
import { Figure } from "./sale-figures.tsx";

/**
 * The buyer's bank's chargebacks of this sale (issue 32), oldest first: where each stands, why the
 * bank says it was asked, what it holds of each part of the sale and what of it became the creator's
 * debt, the evidence sent (or about to be) and the creator's note until it leaves.
 */
export function SaleDisputes({
  sale,
  money,
  when,
  onNoteSaved,
}: {
  sale: SaleView;
  money: (minor: number | null) => string;
  when: (iso: string | null) => string;
  onNoteSaved: (dispute: DisputeView | null) => void;
}) {
  const t = useTranslations("sales.disputes");
  return (
    <section id="sale-disputes" className="sale-section" aria-labelledby="sale-disputes-title">
      <h2 id="sale-disputes-title">{t("title")}</h2>
      {sale.disputes.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <ul className="sale-disputes">
          {sale.disputes.map((dispute) => (
            <DisputeCard
              key={dispute.id}
              saleId={sale.id}
              dispute={dispute}
              money={money}
              when={when}
              onNoteSaved={onNoteSaved}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function DisputeCard({
  saleId,
  dispute,
  money,
  when,
  onNoteSaved,
}: {
  saleId: string;
  dispute: DisputeView;
  money: (minor: number | null) => string;
  when: (iso: string | null) => string;
  onNoteSaved: (dispute: DisputeView | null) => void;
}) {
  const t = useTranslations("sales.disputes");
  const id = useId();
  const reason = knownReason(dispute.reason)
    ? t(`reasons.${dispute.reason}`)
    : t("reasonOther", { code: dispute.reason });
  const holds = holdsAnything(dispute);
  const heldTitle = dispute.status === "lost" ? t("keptTitle") : holds ? t("heldTitle") : t("nothingHeld");

  return (
    <li className="card sale-dispute" aria-labelledby={`${id}-title`}>
      <div className="sale-dispute-head">
        <h3 id={`${id}-title`}>{t("cardTitle", { date: when(dispute.createdAt) })}</h3>
        <span className={`sale-dispute-status sale-dispute-${dispute.status}`}>
          {t(`status.${dispute.status}`)}
        </span>
      </div>
      <p className="muted">{t(`statusHint.${dispute.status}`)}</p>
      <dl className="sale-figures">
        <Figure term={t("reason")} value={reason} />
        <Figure term={t("amount")} value={money(dispute.amountMinor)} hint={t("amountHint")} />
        <Figure
          term={t("bankFee")}
          value={money(dispute.feeMinor)}
          hint={dispute.feeBorneBy === "creator" ? t("feeByCreator") : t("feeByPlatform")}
        />
        <Figure
          term={t("dueBy")}
          value={when(dispute.evidenceDueBy)}
          hint={dispute.evidenceDueBy ? t("dueByHint") : undefined}
        />
        {dispute.closedAt && <Figure term={t("closedAt")} value={when(dispute.closedAt)} />}
      </dl>

      <h4 className="sale-dispute-subtitle">{heldTitle}</h4>
      {holds || dispute.debtMinor > 0 ? (
        <dl className="sale-figures">
          {heldParts.map((part) => (
            <Figure key={part} term={t(`held.${part}`)} value={money(dispute.held[part])} />
          ))}
          <Figure term={t("debt")} value={money(dispute.debtMinor)} hint={t("debtHint")} />
        </dl>
      ) : (
        <p className="muted">{t("nothingHeldHint")}</p>
      )}

      <DisputeEvidence dispute={dispute} when={when} />
      {dispute.noteOpen ? (
        <DisputeNoteForm saleId={saleId} dispute={dispute} onSaved={onNoteSaved} />
      ) : (
        dispute.creatorNote && (
          <div className="sale-dispute-note">
            <h4 className="sale-dispute-subtitle">{t("note.yours")}</h4>
            <p className="sale-dispute-text">{dispute.creatorNote}</p>
          </div>
        )
      )}
    </li>
  );
}
