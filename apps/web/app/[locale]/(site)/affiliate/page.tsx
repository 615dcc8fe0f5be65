import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getTranslations } from "next-intl/server";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";
import { serverEnv } from "@/lib/server-env.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "affiliatePage" });
  return pageMetadata({
    locale,
    title: t("metaTitle"),
    description: t("metaDescription"),
    path: "/affiliate",
  });
}

const percent = (bps: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);

export default async function AffiliatePage({ params }: Props) {
  const locale = await pageLocale(params);
  // The figures are configuration: read them when the page is requested, not when it was built.
  await connection();
  const rules = serverEnv.rules;
  const t = await getTranslations("affiliatePage");
  const figures = {
    commission: percent(rules.affiliateCommissionBps, locale),
    fee: percent(rules.platformFeeBps, locale),
    months: rules.affiliateDurationMonths,
    days: rules.affiliateCookieDays,
    hold: rules.holdDays,
  };
  return (
    <main>
      <section className="hero">
        <div className="container">
          <p className="eyebrow">{t("eyebrow")}</p>
          <h1>{t("title")}</h1>
          <p className="lead">{t("lead", figures)}</p>
        </div>
      </section>
      <section className="container section">
        <dl className="figures" data-testid="affiliate-figures">
          <div className="card">
            <dt>{t("commissionLabel")}</dt>
            <dd>{figures.commission}</dd>
            <p>{t("commissionText", figures)}</p>
          </div>
          <div className="card">
            <dt>{t("durationLabel")}</dt>
            <dd>{t("months", { count: figures.months })}</dd>
            <p>{t("durationText", figures)}</p>
          </div>
          <div className="card">
            <dt>{t("cookieLabel")}</dt>
            <dd>{t("days", { count: figures.days })}</dd>
            <p>{t("cookieText", figures)}</p>
          </div>
        </dl>
      </section>
      <section className="container section">
        <h2>{t("howTitle")}</h2>
        <ol className="prose-list">
          <li>{t("how1")}</li>
          <li>{t("how2", figures)}</li>
          <li>{t("how3", figures)}</li>
          <li>{t("how4", figures)}</li>
        </ol>
        <h2>{t("rulesTitle")}</h2>
        <ul className="prose-list">
          <li>{t("rule1")}</li>
          <li>{t("rule2")}</li>
          <li>{t("rule3")}</li>
        </ul>
        <div className="cta-row">
          <Link href="/signup" className="btn btn-primary">
            {t("ctaJoin")}
          </Link>
          <Link href="/blog/how-affiliate-attribution-works" className="btn btn-ghost">
            {t("ctaLearn")}
          </Link>
          <Link href="/legal/terms" className="btn btn-ghost">
            {t("ctaTerms")}
          </Link>
        </div>
      </section>
    </main>
  );
}
