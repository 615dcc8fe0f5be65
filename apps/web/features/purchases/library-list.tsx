"use client";

import type { Library, LibraryOrder } from "@salelink/contracts/purchases";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { formatBytes } from "@/components/ui/format-size.ts";
import { InvoiceLinks, VatLine } from "@/features/invoices/invoice-links.tsx";
import { ApiError } from "@/lib/api.ts";
import { formatMoney } from "@/lib/money.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { toast } from "@/lib/toast.ts";
import { resendReceipt } from "./purchases-api.ts";

/**
 * The orders of a library, the same on the buyer's page (opened from the e-mailed link) and under
 * the account. `accessToken` null: the account's session opens it. `onExpired`: the access ended
 * while the page was open (a resend answered 401).
 */
export function LibraryList({
  library,
  accessToken,
  onExpired,
}: {
  library: Library;
  accessToken: string | null;
  onExpired?: () => void;
}) {
  const t = useTranslations("purchases");
  // The invoices are the API's downloads: their links need its address, read once per page.
  const [apiUrl, setApiUrl] = useState<string | null>(null);
  useEffect(() => {
    runtimeConfig()
      .then((config) => setApiUrl(config.apiUrl))
      .catch(() => setApiUrl(null));
  }, []);
  if (library.orders.length === 0) {
    return (
      <div className="card empty-state">
        <p>
          <strong>{t("emptyTitle")}</strong>
        </p>
        <p className="muted">{t("emptyText", { email: library.email })}</p>
      </div>
    );
  }
  return (
    <>
      <p className="muted">{t("ordersOf", { email: library.email, count: library.orders.length })}</p>
      <ul className="purchases-list">
        {library.orders.map((order) => (
          <LibraryItem
            key={order.orderToken}
            order={order}
            accessToken={accessToken}
            apiUrl={apiUrl}
            onExpired={onExpired}
          />
        ))}
      </ul>
      <p className="muted purchases-expiry">{t("linksExpire")}</p>
    </>
  );
}

function LibraryItem({
  order,
  accessToken,
  apiUrl,
  onExpired,
}: {
  order: LibraryOrder;
  accessToken: string | null;
  apiUrl: string | null;
  onExpired?: () => void;
}) {
  const t = useTranslations("purchases");
  const locale = useLocale();
  const [pending, setPending] = useState(false);
  const titleId = useId();
  const paidOn = order.paidAt
    ? new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(order.paidAt))
    : null;

  async function resend() {
    setPending(true);
    try {
      const answer = await resendReceipt(order.orderToken, accessToken);
      toast.success(answer.message);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) toast.error(t("resendLimited"));
      else if (err instanceof ApiError && err.status === 401 && onExpired) onExpired();
      else toast.error(t("resendFailed"));
    } finally {
      setPending(false);
    }
  }

  return (
    <li className="card purchases-item" aria-labelledby={titleId}>
      <div className="purchases-item-head">
        <h2 id={titleId} className="purchases-item-title">
          {order.title}
        </h2>
        <span className={`purchases-status purchases-status-${order.status}`}>
          {t(`status.${order.status}`)}
        </span>
      </div>
      <dl className="purchases-facts">
        {order.creator && (
          <div>
            <dt>{t("creator")}</dt>
            <dd>{order.creator.displayName}</dd>
          </div>
        )}
        {paidOn && order.paidAt && (
          <div>
            <dt>{t("date")}</dt>
            <dd>
              <time dateTime={order.paidAt}>{paidOn}</time>
            </dd>
          </div>
        )}
        <div>
          <dt>{t("amount")}</dt>
          <dd>{formatMoney(order.total, order.currency, locale)}</dd>
        </div>
      </dl>
      {order.vat && <VatLine vat={order.vat} currency={order.currency} locale={locale} />}
      <InvoiceLinks
        apiUrl={apiUrl}
        orderToken={order.orderToken}
        invoices={order.invoices}
        headingLevel={3}
      />
      {order.status === "refunded" ? (
        <p className="muted">{t("refunded")}</p>
      ) : order.files.length > 0 ? (
        <ul className="purchases-files" aria-label={t("filesLabel", { title: order.title })}>
          {order.files.map((file) => (
            <li key={file.downloadUrl}>
              <span className="purchases-file-name">{file.name}</span>
              <span className="muted">{formatBytes(file.sizeBytes, locale)}</span>
              <a
                className="btn btn-ghost"
                href={file.downloadUrl}
                download={file.name}
                rel="noreferrer"
                aria-label={t("downloadLabel", { name: file.name })}
              >
                {t("download")}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="purchases-actions">
        <Link className="btn btn-ghost" href={`/order/${encodeURIComponent(order.orderToken)}`}>
          {t("openOrder")}
        </Link>
        <button
          type="button"
          className="btn btn-ghost"
          disabled={pending}
          aria-busy={pending}
          onClick={resend}
        >
          {pending ? t("resending") : t("resend")}
        </button>
      </div>
    </li>
  );
}
