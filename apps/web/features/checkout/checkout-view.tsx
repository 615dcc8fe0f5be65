import { countryOptions } from "@salelink/contracts/iso-countries";
import type { Locale } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { CreatorAvatar } from "@/features/buyer/creator-avatar.tsx";
import { FileKindIcon } from "@/features/buyer/file-kind-icon.tsx";
import { linkVisual } from "@/features/buyer/media.ts";
import { getPublicLink, mediaUrl } from "@/features/buyer/public-api.ts";
import { formatMoney } from "@/lib/money.ts";
import { CheckoutForm } from "./checkout-form.tsx";
import { type BuyerArea, linkPathIn } from "./paths.ts";
import { ReservedNotice } from "./reserved-notice.tsx";

export async function checkoutMetadata(locale: Locale, token: string): Promise<Metadata> {
  const link = await getPublicLink(token);
  const t = await getTranslations({ locale, namespace: "checkout" });
  return { title: t("metaTitle", { title: link.title }), robots: { index: false, follow: false } };
}

/**
 * The payment page (spec: "payment"): the product from the public link (404 when unknown or
 * paused), then the client island that starts the checkout and takes the card.
 */
export async function CheckoutView({
  locale,
  token,
  promo,
  area,
}: {
  locale: Locale;
  token: string;
  promo: string;
  area: BuyerArea;
}) {
  const link = await getPublicLink(token);
  const t = await getTranslations("checkout");
  const visual = linkVisual(link);

  const product = (
    <div className="checkout-product">
      <div className="checkout-thumb">
        {visual ? (
          // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
          <img src={mediaUrl(visual.path)} alt="" decoding="async" />
        ) : (
          <FileKindIcon kind={link.fileKind} size={32} />
        )}
      </div>
      <div className="checkout-product-text">
        <p className="checkout-product-title">{link.title}</p>
        <p className="checkout-product-creator muted">
          <CreatorAvatar creator={link.creator} size={20} />
          {t("soldBy", { creator: link.creator.displayName })}
        </p>
      </div>
    </div>
  );

  return (
    <main className="container checkout">
      <p className="checkout-back">
        <Link href={linkPathIn(area, link.token)}>← {t("back")}</Link>
      </p>
      <h1 className="checkout-heading">{t("title")}</h1>
      {link.soldOut || (link.reservedOut && link.availableAgainAt) ? (
        <div className="checkout-grid">
          <section className="card checkout-main">
            {link.availableAgainAt && !link.soldOut ? (
              <ClientMessages namespaces={["checkout"]}>
                <ReservedNotice availableAgainAt={link.availableAgainAt} />
              </ClientMessages>
            ) : (
              <p className="notice" role="status">
                {t("soldOut")}
              </p>
            )}
          </section>
          <aside className="card checkout-summary" aria-label={t("summary")}>
            {product}
            <p className="checkout-total">
              <span>{t("price")}</span>
              <strong>{formatMoney(link.priceMinor, link.currency, locale)}</strong>
            </p>
          </aside>
        </div>
      ) : (
        <ClientMessages namespaces={["checkout"]}>
          <CheckoutForm
            token={link.token}
            priceMinor={link.priceMinor}
            currency={link.currency}
            pricesIncludeVat={link.pricesIncludeVat}
            // Named here, by the server's CLDR data: the browser's may word a country otherwise,
            // and the select would not hydrate as rendered.
            countries={countryOptions(locale)}
            creatorName={link.creator.displayName}
            initialPromo={promo}
            area={area}
            product={product}
          />
        </ClientMessages>
      )}
    </main>
  );
}
