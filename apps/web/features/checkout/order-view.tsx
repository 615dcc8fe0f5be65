import type { OrderView as Order } from "@salelink/contracts/checkout";
import { disputeReasons } from "@salelink/contracts/disputes";
import type { Locale } from "@salelink/contracts/locales";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ClientMessages } from "@/components/ui/client-messages.tsx";
import { formatBytes } from "@/components/ui/format-size.ts";
import { FileKindIcon } from "@/features/buyer/file-kind-icon.tsx";
import { InvoiceLinks, VatLine } from "@/features/invoices/invoice-links.tsx";
import { type BuyerArea, creatorPathIn } from "@/lib/buyer-paths.ts";
import { formatMoney } from "@/lib/money.ts";
import { serverEnv } from "@/lib/server-env.ts";
import { getOrder } from "./order-api.ts";
import { ReportDialog } from "./report-dialog.tsx";
import { SandboxDispute } from "./sandbox-dispute.tsx";

export async function orderMetadata(locale: Locale): Promise<Metadata> {
  const t = await getTranslations({ locale, namespace: "order" });
  // The address is the buyer's key to paid files: not indexed, never sent on to another site.
  return { title: t("metaTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

type OrderFile = Order["files"][number];

/** The order view (spec: "order view, with a report modal"): the receipt and the unlocked content. */
export async function OrderView({ locale, token, area }: { locale: Locale; token: string; area: BuyerArea }) {
  const order = await getOrder(token);
  const t = await getTranslations("order");
  const paidOn = order.paidAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(order.paidAt))
    : null;
  const firstExpiry = order.files[0]?.expiresAt;
  const minutes = firstExpiry ? Math.max(1, Math.round((Date.parse(firstExpiry) - Date.now()) / 60_000)) : 0;

  return (
    <main className="container order">
      <header className="order-header">
        <p className="order-eyebrow">{t("eyebrow")}</p>
        <h1 className="order-title">{order.title}</h1>
        {order.creator && (
          <p className="order-creator muted">
            {t("soldBy")}{" "}
            <Link href={creatorPathIn(area, order.creator.id)}>{order.creator.displayName}</Link>
          </p>
        )}
        <dl className="order-facts">
          <div>
            <dt>{t("amount")}</dt>
            <dd data-testid="order-amount">{formatMoney(order.total, order.currency, locale)}</dd>
          </div>
          {paidOn && order.paidAt && (
            <div>
              <dt>{t("date")}</dt>
              <dd>
                <time dateTime={order.paidAt}>{paidOn}</time>
              </dd>
            </div>
          )}
          <div>
            <dt>{t("statusLabel")}</dt>
            <dd>
              <span className={`order-status order-status-${order.status}`}>
                {t(`status.${order.status}`)}
              </span>
            </dd>
          </div>
        </dl>
        {order.vat && <VatLine vat={order.vat} currency={order.currency} locale={locale} />}
      </header>

      <InvoiceLinks apiUrl={serverEnv.apiPublicUrl} orderToken={token} invoices={order.invoices} />

      <section className="order-content" aria-labelledby="order-files-title">
        <h2 id="order-files-title">{t("filesTitle")}</h2>
        {order.status === "refunded" ? (
          <p className="notice" role="status">
            {t("refunded")}
          </p>
        ) : order.status !== "paid" ? (
          <p className="notice" role="status">
            {t("notPaid")}
          </p>
        ) : order.files.length === 0 ? (
          <p className="empty">{t("noFiles")}</p>
        ) : (
          <>
            <ul className="order-files">
              {order.files.map((file) => (
                <li key={file.downloadUrl} className="card order-file">
                  <FilePreview file={file} kindLabel={t(`kind.${file.kind}`)} />
                  <div className="order-file-bar">
                    <div className="order-file-meta">
                      <span className="order-file-name">{file.name}</span>
                      <span className="muted">
                        {t(`kind.${file.kind}`)} · {formatBytes(file.sizeBytes, locale)}
                      </span>
                    </div>
                    <a
                      className="btn btn-primary"
                      href={file.downloadUrl}
                      download={file.name}
                      rel="noreferrer"
                      aria-label={t("downloadLabel", { name: file.name })}
                    >
                      <svg
                        width="18"
                        height="18"
                        viewBox="0 0 24 24"
                        fill="none"
                        stroke="currentColor"
                        strokeWidth="2"
                        strokeLinecap="round"
                        strokeLinejoin="round"
                        aria-hidden="true"
                      >
                        <path d="M12 4v11 M7 10l5 5 5-5 M5 20h14" />
                      </svg>
                      {t("download")}
                    </a>
                  </div>
                </li>
              ))}
            </ul>
            <p className="muted order-expiry">{t("linksExpire", { minutes })}</p>
          </>
        )}
      </section>

      {order.description && (
        <section className="order-about">
          <h2>{t("about")}</h2>
          <p>{order.description}</p>
        </section>
      )}

      <aside className="order-help">
        <p className="order-private">{t("keepPrivate")}</p>
        <p>
          <Link href="/purchases">{t("findAll")}</Link>
        </p>
        <div className="card order-report">
          <div>
            <h2>{t("reportTitle")}</h2>
            <p className="muted">{t("reportText")}</p>
          </div>
          <ClientMessages namespaces={["report"]}>
            <ReportDialog token={token} kind="order" />
          </ClientMessages>
        </div>
        {/* Issue 32: the sandbox's card issuer, only where the sandbox takes payments (as the API's route). */}
        {serverEnv.paymentProvider === "sandbox" && order.status === "paid" && (
          <ClientMessages namespaces={["sandboxDispute"]}>
            <SandboxDispute token={token} reasons={disputeReasons} />
          </ClientMessages>
        )}
      </aside>
    </main>
  );
}

/** Images, video and audio play in the page from their short-lived URL; other kinds get a card. */
function FilePreview({ file, kindLabel }: { file: OrderFile; kindLabel: string }) {
  if (file.kind === "image") {
    return (
      <div className="order-media">
        {/* biome-ignore lint/performance/noImgElement: a signed, short-lived URL; no image optimiser. */}
        <img src={file.viewUrl} alt={file.name} decoding="async" />
      </div>
    );
  }
  if (file.kind === "video") {
    return (
      <div className="order-media">
        {/* biome-ignore lint/a11y/useMediaCaption: the creator's file; we have no captions for it. */}
        <video controls preload="metadata" src={file.viewUrl} aria-label={file.name} />
      </div>
    );
  }
  if (file.kind === "audio") {
    return (
      <div className="order-media order-media-audio">
        <FileKindIcon kind="audio" size={40} />
        {/* biome-ignore lint/a11y/useMediaCaption: the creator's file; we have no captions for it. */}
        <audio controls preload="metadata" src={file.viewUrl} aria-label={file.name} />
      </div>
    );
  }
  return (
    <div className="order-media order-media-card">
      <FileKindIcon kind={file.kind} size={48} />
      <span>{kindLabel}</span>
    </div>
  );
}
