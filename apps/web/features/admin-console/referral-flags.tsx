"use client";

import { type AdminReferralFlagList, adminReferralFlagListSchema } from "@salelink/contracts/affiliates";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";

type Flag = AdminReferralFlagList["items"][number];

/**
 * Referrals flagged as self-referrals (issue 16): the referred account, its referrer, the signal
 * they share (same mailbox, same sign-up device, same payout IBAN) and how many unclaimed
 * commissions were taken back. They earn nothing from their flag on; there is nothing to decide.
 */
export function ReferralFlags() {
  const t = useTranslations("adminOverview.referrals");
  const {
    data,
    failed,
    reload: load,
  } = useApiQuery(queryKeys.admin.referralFlags, "/admin/referral-flags", adminReferralFlagListSchema);
  const flags = data?.items ?? null;

  return (
    <section className="admin-console admin-referrals">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <div role="alert">
          <p className="field-error">{t("loadFailed")}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => load()}>
            {t("retry")}
          </button>
        </div>
      ) : flags === null ? (
        <p aria-busy="true" className="muted">
          {t("loading")}
        </p>
      ) : flags.length === 0 ? (
        <div className="card empty-state">
          <p>
            <strong>{t("empty")}</strong>
          </p>
        </div>
      ) : (
        <ul className="admin-list" aria-label={t("listLabel")}>
          {flags.map((flag) => (
            <FlagRow key={flag.referred.id} flag={flag} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FlagRow({ flag }: { flag: Flag }) {
  const t = useTranslations("adminOverview.referrals");
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(flag.flaggedAt),
  );
  return (
    <li className="card" aria-label={t("rowLabel", { email: flag.referred.email })}>
      <dl className="admin-facts">
        <div>
          <dt>{t("referred")}</dt>
          <dd>
            <Link href={`/admin/accounts/${flag.referred.id}`}>{flag.referred.email}</Link>
          </dd>
        </div>
        <div>
          <dt>{t("referrer")}</dt>
          <dd>
            <Link href={`/admin/accounts/${flag.referrer.id}`}>{flag.referrer.email}</Link>
          </dd>
        </div>
        <div>
          <dt>{t("signal")}</dt>
          <dd>{t(`signals.${flag.signal}`)}</dd>
        </div>
        <div>
          <dt>{t("voided")}</dt>
          <dd>{flag.voidedCommissions}</dd>
        </div>
        <div>
          <dt>{t("flaggedAt")}</dt>
          <dd>
            <time dateTime={flag.flaggedAt}>{when}</time>
          </dd>
        </div>
      </dl>
    </li>
  );
}
