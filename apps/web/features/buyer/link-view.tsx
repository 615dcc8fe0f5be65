import type { Locale } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { preconnect } from "react-dom";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { ReportIcon } from "@/features/checkout/report-icon.tsx";
import { type BuyerArea, checkoutPathIn, creatorPathIn, linkPathIn } from "@/lib/buyer-paths.ts";
import { pageMetadata } from "@/lib/metadata.ts";
import { formatMoney, minorToDecimal } from "@/lib/money.ts";
import { CreatorAvatar } from "./creator-avatar.tsx";
import { FileKindIcon } from "./file-kind-icon.tsx";
import { linkVisual } from "./media.ts";
import { getPublicLink, mediaUrl } from "./public-api.ts";
import { ReportTrigger } from "./report-trigger.tsx";
import { minutesUntil } from "./reservation.ts";
import { UsePromocode } from "./use-promocode.tsx";

/** Both URLs of the purchase view (/v/{token}, /app/links/{token}) are this one page: its canonical URL. */
export const linkPath = (token: string) => linkPathIn("public", token);

/** Search engines and link previews show about this much of a description. */
const SNIPPET_LENGTH = 160;
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= SNIPPET_LENGTH ? flat : `${flat.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…`;
}

export async function linkMetadata(locale: Locale, token: string): Promise<Metadata> {
  const link = await getPublicLink(token);
  const t = await getTranslations({ locale, namespace: "buyer" });
  const description =
    snippet(link.description) ||
    t("metaDescription", { title: link.title, creator: link.creator.displayName });
  const base = pageMetadata({ locale, title: link.title, description, path: linkPath(link.token) });
  const visual = linkVisual(link);
  const image = visual
    ? {
        url: mediaUrl(visual.path),
        alt: link.title,
        ...(visual.kind === "cover" ? { width: visual.width, height: visual.height } : {}),
      }
    : null;
  // Open Graph has a "product" type that Next.js's types do not list: the page renders og:type itself.
  const { type: _website, ...openGraph } = base.openGraph as NonNullable<Metadata["openGraph"]> & {
    type?: string;
  };
  return {
    ...base,
    openGraph: { ...openGraph, ...(image ? { images: [image] } : {}) },
    twitter: image
      ? {
          card: "summary_large_image",
          title: link.title,
          description,
          images: [{ url: image.url, alt: link.title }],
        }
      : { card: "summary", title: link.title, description },
  };
}

/** `area`: the prefix the buyer came in by; every link of the page keeps it (spec section 2). */
export async function LinkView({ locale, token, area }: { locale: Locale; token: string; area: BuyerArea }) {
  const link = await getPublicLink(token);
  const t = await getTranslations("buyer");
  const tReport = await getTranslations("report");
  const visual = linkVisual(link);
  // The image comes from the API's origin: connect while the browser is still reading the page.
  if (visual) preconnect(new URL(mediaUrl(visual.path)).origin);
  const kind = link.fileKind ?? "other";
  const price = formatMoney(link.priceMinor, link.currency, locale);
  return (
    <main className="container section buyer">
      {/* React places these in <head>: Open Graph's product type and its price. */}
      <meta property="og:type" content="product" />
      <meta property="product:price:amount" content={minorToDecimal(link.priceMinor, link.currency)} />
      <meta property="product:price:currency" content={link.currency} />
      <div className="buyer-grid">
        <div className={`buyer-media${visual ? ` buyer-media-${visual.kind}` : ""}`}>
          {visual ? (
            // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
            <img
              src={mediaUrl(visual.path)}
              alt={t(visual.kind === "cover" ? "coverAlt" : "previewAlt", { title: link.title })}
              width={visual.kind === "cover" ? visual.width : undefined}
              height={visual.kind === "cover" ? visual.height : undefined}
              fetchPriority="high"
            />
          ) : (
            <div className="file-card">
              <FileKindIcon kind={link.fileKind} size={56} />
              <span>{t(`kind.${kind}`)}</span>
            </div>
          )}
          {visual?.kind === "preview" && <span className="media-badge">{t("blurredPreview")}</span>}
        </div>

        <div className="buyer-info">
          <Link href={creatorPathIn(area, link.creator.id)} className="creator-chip">
            <CreatorAvatar creator={link.creator} size={36} />
            <span>
              <span className="muted creator-chip-label">{t("soldBy")}</span>
              <span className="creator-chip-name">{link.creator.displayName}</span>
            </span>
          </Link>
          <h1 className="buyer-title">{link.title}</h1>
          <p className="buyer-kind">
            <FileKindIcon kind={link.fileKind} size={18} />
            {t("youGet", { kind: t(`kind.${kind}`) })}
          </p>

          <section className="card buyer-purchase" aria-label={t("purchase")}>
            {link.soldOut ? (
              <>
                <p className="price-line">
                  <strong className="price" data-testid="price">
                    {price}
                  </strong>
                </p>
                <p className="notice sold-out" role="status">
                  <strong>{t("soldOut")}</strong> {t("soldOutText")}
                </p>
              </>
            ) : link.reservedOut && link.availableAgainAt ? (
              <>
                <p className="price-line">
                  <strong className="price" data-testid="price">
                    {price}
                  </strong>
                </p>
                {/* No script on this page's budget (decision 009): the API refreshes the cached page
                    each minute while every unit is reserved, so the count stays right. */}
                <p className="notice sold-out" role="status" data-testid="reserved-out">
                  <strong>{t("reservedOut")}</strong>{" "}
                  {t("reservedOutText", { minutes: minutesUntil(link.availableAgainAt) })}
                </p>
              </>
            ) : (
              <ClientMessages namespaces={["buyer"]}>
                <UsePromocode
                  token={link.token}
                  checkout={checkoutPathIn(area, link.token)}
                  priceMinor={link.priceMinor}
                  currency={link.currency}
                />
              </ClientMessages>
            )}
            {/* Under the price, plain text from the server (issue 22): whether VAT is in it or added. */}
            <p className="muted purchase-note" data-testid="vat-note">
              {link.pricesIncludeVat ? t("vatIncluded") : t("vatAdded")}
            </p>
            <p className="muted purchase-note">{t("deliveryNote")}</p>
            {/* Plain text from the server: the creator's refund window (issue 21), no script. */}
            <p className="muted purchase-note" data-testid="refund-policy">
              {t("refundPolicy", { days: link.refundWindowDays })}
            </p>
          </section>

          {link.description && (
            <section className="buyer-description">
              <h2>{t("about")}</h2>
              <p>{link.description}</p>
            </section>
          )}

          {/* The spec's "link report modal", for anyone holding the link. */}
          <aside className="buyer-report">
            <p className="muted">{tReport("linkPrompt")}</p>
            <ClientMessages namespaces={["report"]}>
              <ReportTrigger token={link.token}>
                <ReportIcon />
                {tReport("button")}
              </ReportTrigger>
            </ClientMessages>
          </aside>
        </div>
      </div>
    </main>
  );
}
