import type { OrderView } from "@salelink/contracts/checkout";
import { useTranslations } from "next-intl";
import { formatMoney } from "@/lib/money.ts";
import "./invoices.css";

/*
 * An order's VAT line and its invoice and credit notes as download links (issue 22), the same on the
 * order page (a server component) and in the buyer's library (a client one). The PDFs are the API's,
 * behind the order's token: a plain link, so the browser downloads them itself.
 */

/** "20 %", "5,5 %": a rate in basis points in the language. */
export function formatRate(bps: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(bps / 10_000);
}

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The download's address: the API's, by the order's token. */
export const invoicePdfUrl = (apiUrl: string, orderToken: string, invoiceId: string) =>
  `${apiUrl}/orders/${encodeURIComponent(orderToken)}/invoices/${invoiceId}.pdf`;

export function VatLine({
  vat,
  currency,
  locale,
}: {
  vat: NonNullable<OrderView["vat"]>;
  currency: string;
  locale: string;
}) {
  const t = useTranslations("invoices");
  if (vat.scheme === "reverse-charge") return <p className="muted order-vat">{t("vatReverseCharge")}</p>;
  if (vat.scheme !== "standard" || vat.vatMinor === 0)
    return <p className="muted order-vat">{t("vatNone")}</p>;
  const values = {
    rate: formatRate(vat.rateBps, locale),
    country: vat.country ? countryName(vat.country, locale) : "",
    amount: formatMoney(vat.vatMinor, currency, locale),
  };
  return (
    <p className="muted order-vat">
      {vat.pricesIncludeVat ? t("vatStandard", values) : t("vatAdded", values)}
    </p>
  );
}

/** The invoice and any credit notes, oldest first; nothing while the API's address is not known yet. */
export function InvoiceLinks({
  apiUrl,
  orderToken,
  invoices,
  headingLevel = 2,
}: {
  apiUrl: string | null;
  orderToken: string;
  invoices: OrderView["invoices"];
  headingLevel?: 2 | 3;
}) {
  const t = useTranslations("invoices");
  if (apiUrl === null || invoices.length === 0) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="order-invoices" aria-label={t("title")}>
      <Heading className="order-invoices-title">{t("title")}</Heading>
      <ul className="order-invoices-list">
        {invoices.map((invoice) => (
          <li key={invoice.id}>
            <a href={invoicePdfUrl(apiUrl, orderToken, invoice.id)} download rel="noreferrer">
              {invoice.kind === "invoice"
                ? t("invoice", { number: invoice.number })
                : t("creditNote", { number: invoice.number })}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
