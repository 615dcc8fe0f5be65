"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { PARTNER_CHART_DEFAULT_DAYS } from "@salelink/contracts/partner-sales";
import { type MembershipStats, membershipStatsSchema } from "@salelink/contracts/partners";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { DetailStates } from "@/components/ui/list-states.tsx";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { formatAmounts } from "@/features/affiliates/money-list.ts";
import { ApiError, api } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { MembershipChart } from "./membership-chart.tsx";
import { amountsOf, creatorLabel, formatRate, partnerCreatorUrl, partnerLinkUrl } from "./partner-format.ts";
import { ShareLink } from "./share-link.tsx";

/** The chart's periods, in days (the API takes any from 1 to a year). */
export const MEMBERSHIP_PERIODS = [7, PARTNER_CHART_DEFAULT_DAYS, 90] as const;

/**
 * /account/programmes/{membershipId}: one programme as its partner sees it: the figures, the chart
 * over a chosen period, and every link of the creator with my partner address, its rate, copy and QR.
 */
export function MembershipPage({
  membershipId,
  defaultCurrency,
}: {
  membershipId: string;
  defaultCurrency: Currency;
}) {
  const t = useTranslations("partners.membership");
  const locale = useLocale();
  const [days, setDays] = useState<number>(PARTNER_CHART_DEFAULT_DAYS);
  // The site's own origin (the partner addresses point at it); known once in the browser.
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => setOrigin(window.location.origin), []);
  const query = useQuery({
    queryKey: queryKeys.programmes.membership(membershipId, days),
    queryFn: ({ signal }) =>
      api(`/programmes/memberships/${encodeURIComponent(membershipId)}?days=${days}`, {
        schema: membershipStatsSchema,
        signal,
      }),
    // Another period: the figures on screen stay until the new ones come.
    placeholderData: keepPreviousData,
  });
  const { data, failed, reload } = useQueryState<MembershipStats>(query);
  // A malformed id (400) is as unknown as a missing one.
  const notFound =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);

  if (failed || data === null) {
    return (
      <DetailStates
        className="affiliates partners"
        back={
          <p>
            <Link href="/account/programmes">{t("back")}</Link>
          </p>
        }
        failed={failed}
        notFound={notFound}
        texts={{ notFound: t("notFound"), failed: t("loadFailed"), retry: t("retry"), loading: t("loading") }}
        onRetry={reload}
      />
    );
  }

  const { membership, stats, links } = data;
  const name = creatorLabel(membership.creator) ?? t("unnamedCreator");
  const money = (key: Parameters<typeof amountsOf>[1]) =>
    formatAmounts(amountsOf(stats.money, key), locale, defaultCurrency);
  const active = membership.status === "active";

  return (
    <section className="affiliates partners">
      <p>
        <Link href="/account/programmes">{t("back")}</Link>
      </p>
      <h1>{t("title", { name })}</h1>
      <p className="muted">
        {t("terms", {
          rate: formatRate(membership.defaultRateBps, locale),
          days: membership.windowDays,
          code: membership.code,
        })}
      </p>
      {!active && <p className="notice">{t(`inactive.${membership.status}`)}</p>}
      {active && !membership.programmeEnabled && <p className="notice">{t("programmeOff")}</p>}

      <section className="aff-section" aria-labelledby="membership-figures-title">
        <h2 id="membership-figures-title">{t("figuresTitle")}</h2>
        <dl className="aff-figures card partners-figures">
          <Figure term={t("clicks")} value={stats.clicks} />
          <Figure term={t("bots")} value={stats.botClicks} />
          <Figure term={t("filtered")} value={stats.filteredClicks} />
          <Figure term={t("sales")} value={stats.sales} />
          <Figure term={t("refunds")} value={stats.refunds} />
          <Figure term={t("revenue")} value={money("revenueMinor")} />
          <Figure term={t("held")} value={money("heldMinor")} />
          <Figure term={t("owed")} value={money("owedMinor")} />
          <Figure term={t("paid")} value={money("paidMinor")} />
        </dl>
      </section>

      <section className="aff-section" aria-labelledby="membership-chart-title">
        <div className="aff-section-head">
          <h2 id="membership-chart-title">{t("chartTitle")}</h2>
          <div className="field aff-chart-filter">
            <label htmlFor="membership-period">{t("period")}</label>
            <select id="membership-period" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {MEMBERSHIP_PERIODS.map((p) => (
                <option key={p} value={p}>
                  {t("lastDays", { count: p })}
                </option>
              ))}
            </select>
          </div>
        </div>
        <MembershipChart days={data.days} period={days} defaultCurrency={defaultCurrency} />
      </section>

      {active && origin && (
        <section className="aff-section" aria-labelledby="membership-links-title">
          <h2 id="membership-links-title">{t("linksTitle")}</h2>
          <p className="muted">{t("linksIntro", { days: membership.windowDays })}</p>
          {membership.creator.profileId && (
            <div className="card partners-card">
              <h3>{t("creatorPage", { name })}</h3>
              <ShareLink
                label={t("creatorPageLink")}
                url={partnerCreatorUrl(origin, membership.creator.profileId, membership.code)}
              />
            </div>
          )}
          {links.length === 0 ? (
            <p className="muted">{t("linksEmpty")}</p>
          ) : (
            <ul className="partners-cards">
              {links.map((link) => (
                <li key={link.token} className="card partners-card">
                  <div className="aff-campaign-head">
                    <h3>{link.title}</h3>
                    <span className="muted">{formatMoney(link.priceMinor, link.currency, locale)}</span>
                  </div>
                  <p className="partners-hint">{t("linkRate", { rate: formatRate(link.rateBps, locale) })}</p>
                  <ShareLink
                    label={t("partnerLink", { title: link.title })}
                    url={partnerLinkUrl(origin, link.token, membership.code)}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}

function Figure({ term, value }: { term: string; value: string | number }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
