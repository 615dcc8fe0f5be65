import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { pageMetadata } from "@/lib/metadata.ts";
import { pageLocale } from "@/lib/page-locale.ts";

type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const locale = await pageLocale(params);
  const t = await getTranslations({ locale, namespace: "home" });
  return pageMetadata({ locale, title: t("metaTitle"), description: t("metaDescription"), path: "/" });
}

const audiences = ["creators", "buyers", "affiliates"] as const;
const steps = ["upload", "share", "paid"] as const;

export default async function HomePage({ params }: Props) {
  await pageLocale(params);
  const t = await getTranslations("home");
  return (
    <main>
      <section className="hero">
        <div className="container">
          <p className="eyebrow">{t("eyebrow")}</p>
          <h1>{t("title")}</h1>
          <p className="lead">{t("lead")}</p>
          <div className="cta-row">
            <Link href="/signup" className="btn btn-primary btn-lg">
              {t("ctaStart")}
            </Link>
            <Link href="/blog/price-your-first-digital-product" className="btn btn-ghost btn-lg">
              {t("ctaCreators")}
            </Link>
            <Link href="/affiliate" className="btn btn-ghost btn-lg">
              {t("ctaAffiliates")}
            </Link>
          </div>
        </div>
      </section>

      <section className="container section" aria-labelledby="how-title">
        <h2 id="how-title">{t("howTitle")}</h2>
        <ol className="steps">
          {steps.map((step, i) => (
            <li key={step} className="card">
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{t(`steps.${step}.title`)}</h3>
              <p>{t(`steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="container section" aria-labelledby="who-title">
        <h2 id="who-title">{t("whoTitle")}</h2>
        <div className="grid-3">
          {audiences.map((a) => (
            <article key={a} className="card">
              <h3>{t(`audiences.${a}.title`)}</h3>
              <ul className="checklist">
                {(["one", "two", "three"] as const).map((k) => (
                  <li key={k}>{t(`audiences.${a}.${k}`)}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </section>

      <section className="container section trust" aria-labelledby="trust-title">
        <h2 id="trust-title">{t("trustTitle")}</h2>
        <p>{t("trustText")}</p>
        <div className="cta-row">
          <Link href="/blog/getting-paid-wallet-hold-and-payouts" className="btn btn-ghost">
            {t("ctaPayouts")}
          </Link>
          <Link href="/blog" className="btn btn-ghost">
            {t("ctaBlog")}
          </Link>
        </div>
      </section>
    </main>
  );
}
