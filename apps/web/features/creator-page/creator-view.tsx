import type { CreatorPage, PublicLink } from "@salelink/contracts/catalogue";
import type { Locale } from "@salelink/contracts/locales";
import type { PublicProgramme } from "@salelink/contracts/partners";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { preconnect } from "react-dom";
import { CreatorAvatar } from "@/features/buyer/creator-avatar.tsx";
import { FileKindIcon } from "@/features/buyer/file-kind-icon.tsx";
import { snippet } from "@/features/buyer/link-view.tsx";
import { linkVisual } from "@/features/buyer/media.ts";
import { getCreatorPage, mediaUrl } from "@/features/buyer/public-api.ts";
import { type BuyerArea, creatorPathIn, linkPathIn } from "@/lib/buyer-paths.ts";
import { pageMetadata } from "@/lib/metadata.ts";
import { formatMoney } from "@/lib/money.ts";
import { BecomePartner } from "./become-partner.tsx";
import { getJoinableProgramme } from "./programme.ts";
import "./creator-page.css";

/** One canonical URL per creator, the public one by id, whether reached by id or by handle, /c or /app. */
const creatorPath = (id: string) => creatorPathIn("public", id);

export async function creatorMetadata(locale: Locale, idOrHandle: string): Promise<Metadata> {
  const { profile, links } = await getCreatorPage(idOrHandle);
  const t = await getTranslations({ locale, namespace: "creatorPage" });
  const title = t("metaTitle", { name: profile.displayName, handle: profile.handle });
  const description = snippet(profile.bio) || t("metaDescription", { name: profile.displayName });
  const base = pageMetadata({ locale, title, description, path: creatorPath(profile.id) });
  // A profile has no picture of its own for previews: the first product's cover, else the avatar.
  const visual = links.map(linkVisual).find((v) => v?.kind === "cover") ?? null;
  const image = visual
    ? { url: mediaUrl(visual.path), width: visual.width, height: visual.height, alt: profile.displayName }
    : profile.avatarUrl
      ? { url: mediaUrl(profile.avatarUrl), alt: profile.displayName }
      : null;
  return {
    ...base,
    openGraph: {
      ...base.openGraph,
      type: "profile",
      username: profile.handle,
      ...(image ? { images: [image] } : {}),
    },
    twitter:
      image && visual
        ? { card: "summary_large_image", title, description, images: [{ url: image.url, alt: image.alt }] }
        : {
            card: "summary",
            title,
            description,
            ...(image ? { images: [{ url: image.url, alt: image.alt }] } : {}),
          },
  };
}

interface ProductCardProps {
  link: PublicLink;
  area: BuyerArea;
  locale: Locale;
  soldOut: string;
  /** The first card is in a phone's first screen, often its largest paint: it must not wait to load. */
  first: boolean;
}

function ProductCard({ link, area, locale, soldOut, first }: ProductCardProps) {
  const visual = linkVisual(link);
  return (
    <Link href={linkPathIn(area, link.token)} className="card product-card">
      <span className="product-card-media">
        {visual ? (
          // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
          <img
            src={mediaUrl(visual.path)}
            alt=""
            width={1200}
            height={630}
            loading={first ? "eager" : "lazy"}
            decoding="async"
            fetchPriority={first ? "high" : undefined}
          />
        ) : (
          <FileKindIcon kind={link.fileKind} size={44} />
        )}
      </span>
      <span className="product-card-body">
        <span className="product-card-title">{link.title}</span>
        {link.soldOut ? (
          <span className="product-card-sold-out">{soldOut}</span>
        ) : (
          <span className="product-card-price">{formatMoney(link.priceMinor, link.currency, locale)}</span>
        )}
      </span>
    </Link>
  );
}

/** `area`: the prefix the buyer came in by; the product cards keep it (spec section 2). */
export async function CreatorView({
  locale,
  page,
  area,
}: {
  locale: Locale;
  page: CreatorPage;
  area: BuyerArea;
}) {
  const { profile, links } = page;
  const t = await getTranslations("creatorPage");
  const programme = await getJoinableProgramme(profile.id);
  // Covers and avatars come from the API's origin: connect while the browser is still reading the page.
  if (profile.avatarUrl || links.some(linkVisual)) preconnect(new URL(mediaUrl("/")).origin);
  return (
    <main className="container creator-page">
      <header className="creator-header">
        <CreatorAvatar creator={profile} size={112} />
        <div>
          <h1>{profile.displayName}</h1>
          <p className="creator-handle">@{profile.handle}</p>
          {profile.bio && <p className="creator-bio">{profile.bio}</p>}
          {profile.socialLinks.length > 0 && (
            <ul className="creator-socials" aria-label={t("socialLinks")}>
              {profile.socialLinks.map((url) => (
                <li key={url}>
                  <a href={url} rel="me noopener" target="_blank">
                    {hostOf(url)}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </header>

      <section aria-labelledby="portfolio-heading">
        <div className="portfolio-heading">
          <h2 id="portfolio-heading">{t("products")}</h2>
          {links.length > 0 && <span className="muted">{t("productCount", { count: links.length })}</span>}
        </div>
        {links.length > 0 ? (
          <ul className="portfolio">
            {links.map((link, i) => (
              <li key={link.token}>
                <ProductCard link={link} area={area} locale={locale} soldOut={t("soldOut")} first={i === 0} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty">{t("empty", { name: profile.displayName })}</p>
        )}
      </section>
      {programme && (
        <PartnerSection
          programme={programme}
          name={profile.displayName}
          locale={locale}
          returnPath={creatorPathIn(area, profile.id)}
        />
      )}
    </main>
  );
}

/** "Become a partner": the creator's programme, when it is on and open or by approval (issue 20). */
async function PartnerSection({
  programme,
  name,
  locale,
  returnPath,
}: {
  programme: PublicProgramme;
  name: string;
  locale: Locale;
  returnPath: string;
}) {
  const t = await getTranslations({ locale, namespace: "creatorPage.partner" });
  const rate = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(
    programme.defaultRateBps / 10_000,
  );
  const joinMode = programme.joinMode === "open" ? "open" : "approval";
  return (
    <section className="card creator-partner" aria-labelledby="creator-partner-heading">
      <h2 id="creator-partner-heading">{t("title")}</h2>
      <p>{t("offer", { name, rate, days: programme.windowDays })}</p>
      {programme.description && <p className="creator-partner-description">{programme.description}</p>}
      {joinMode === "approval" && <p className="muted">{t("approvalHint", { name })}</p>}
      {programme.terms && (
        <details className="creator-partner-terms">
          <summary>{t("terms")}</summary>
          <p>{programme.terms}</p>
        </details>
      )}
      <BecomePartner
        creatorId={programme.creatorId}
        joinMode={joinMode}
        returnPath={returnPath}
        texts={{
          join: t("join"),
          apply: t("apply"),
          joining: t("joining"),
          signIn: t("signIn"),
          joined: t("joined", { name }),
          applied: t("applied", { name }),
          failed: t("failed"),
          own: t("own"),
          open: t("open"),
        }}
      />
    </section>
  );
}

/** A social link shown by its site ("instagram.com/maya"), not its full address. */
function hostOf(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    const path = pathname.replace(/\/$/, "");
    return `${hostname.replace(/^www\./, "")}${path}`;
  } catch {
    return url;
  }
}

export { getCreatorPage };
