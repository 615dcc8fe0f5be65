import { type Locale, locales } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { describe, expect, it } from "vitest";
import type {
  CreatorStatement,
  InvoiceDocument,
  StatementSale,
} from "../../src/modules/invoices/document.ts";
import { invoiceMessages } from "../../src/modules/invoices/messages.ts";
import { renderInvoicePdf, renderStatementPdf } from "../../src/modules/invoices/pdf.ts";

/*
 * The PDFs are read back as text (unpdf, the PDF.js text layer) and checked for what the law and
 * the issue ask them to say. Spaces of every kind (French groups digits with a narrow no-break space)
 * compare as one plain space.
 */

const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();

/** Without any space, for sentences long enough to wrap. */
const compact = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, "");

async function pages(pdf: Buffer): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
  return text.map(flat);
}

async function textOf(pdf: Buffer): Promise<string> {
  return (await pages(pdf)).join(" ");
}

const money = (minor: number, currency: string, locale: Locale) => flat(formatMoney(minor, currency, locale));

const seller = {
  name: "SaleLink SAS",
  address: ["12 rue de la Paix", "75002 Paris", "France"],
  vatNumber: "FR40123456789",
};

const line = {
  description: "Aquarelles de Bretagne",
  creator: "Jeanne Martin",
  quantity: 1,
  netMinor: 1000,
  vatRateBps: 2000,
  vatMinor: 200,
  grossMinor: 1200,
} as const;

/** A French consumer's sale at 20 %: 10.00 net, 2.00 VAT. */
const frenchInvoice: InvoiceDocument = {
  kind: "invoice",
  number: "2026-000123",
  issuedAt: new Date("2026-11-03T10:15:00Z"),
  supplyDate: new Date("2026-11-02T23:30:00Z"),
  currency: "EUR",
  seller,
  buyer: { email: "claire@example.fr", name: "Claire Dubois", country: "FR" },
  lines: [line],
  netMinor: 1000,
  vatMinor: 200,
  totalMinor: 1200,
  vatRateBps: 2000,
  vatCountry: "FR",
  scheme: "standard",
  orderReference: "ord_01JD8K2M",
};

/** A Hungarian consumer at 27 %, with the letters Helvetica cannot print. */
const hungarianInvoice: InvoiceDocument = {
  ...frenchInvoice,
  number: "2026-000124",
  buyer: {
    email: "odon@example.hu",
    name: "Kovács Ödön Űrhajós",
    address: ["Fő utca 12.", "1011 Budapest"],
    country: "HU",
  },
  lines: [
    {
      ...line,
      netMinor: 123_456,
      vatRateBps: 2700,
      vatMinor: 33_333,
      grossMinor: 156_789,
    },
  ],
  netMinor: 123_456,
  vatMinor: 33_333,
  totalMinor: 156_789,
  vatRateBps: 2700,
  vatCountry: "HU",
};

/** A German business with a valid VAT number: reverse charge, no VAT. */
const reverseChargeInvoice: InvoiceDocument = {
  ...frenchInvoice,
  number: "2026-000125",
  buyer: {
    email: "einkauf@example.de",
    name: "Beispiel GmbH",
    address: ["Hauptstraße 5", "10115 Berlin", "Deutschland"],
    country: "DE",
    vatNumber: "DE129273398",
  },
  lines: [{ ...line, vatRateBps: 0, vatMinor: 0, grossMinor: 1000 }],
  vatMinor: 0,
  totalMinor: 1000,
  vatRateBps: 0,
  vatCountry: null,
  scheme: "reverse-charge",
};

const corrected = { number: "2026-000123", issuedAt: new Date("2026-11-03T10:15:00Z") };
const creditNote: InvoiceDocument = {
  ...frenchInvoice,
  kind: "credit-note",
  number: "CN-2026-000007",
  issuedAt: new Date("2026-11-20T08:00:00Z"),
  refersTo: corrected,
};

const titles: Record<Locale, { invoice: string; creditNote: string; reverseCharge: string }> = {
  en: { invoice: "Invoice", creditNote: "Credit note", reverseCharge: "Reverse charge" },
  fr: { invoice: "Facture", creditNote: "Avoir", reverseCharge: "Autoliquidation" },
  es: {
    invoice: "Factura",
    creditNote: "Factura rectificativa",
    reverseCharge: "Inversión del sujeto pasivo",
  },
};

describe("invoice PDFs", () => {
  for (const locale of locales) {
    it(`prints a consumer's invoice with every required detail (${locale})`, async () => {
      const text = await textOf(await renderInvoicePdf(frenchInvoice, locale));
      const date = (d: Date) =>
        flat(new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(d));
      expect(text.startsWith(titles[locale].invoice)).toBe(true);
      for (const part of [
        "2026-000123",
        date(frenchInvoice.issuedAt),
        date(frenchInvoice.supplyDate),
        "ord_01JD8K2M",
        "SaleLink SAS",
        "12 rue de la Paix 75002 Paris France",
        "FR40123456789",
        "Claire Dubois",
        "claire@example.fr",
        "Aquarelles de Bretagne",
        "Jeanne Martin",
        money(1000, "EUR", locale),
        money(200, "EUR", locale),
        money(1200, "EUR", locale),
        flat(new Intl.NumberFormat(locale, { style: "percent" }).format(0.2)),
        "EUR",
      ]) {
        expect(text).toContain(part);
      }
      // Supplied late on the 2nd (UTC), invoiced on the 3rd: both dates, each in UTC.
      expect(date(frenchInvoice.supplyDate)).not.toBe(date(frenchInvoice.issuedAt));
      expect(text).not.toContain(titles[locale].reverseCharge);
      expect(text).toContain(
        flat(`${invoiceMessages[locale].page}`.replace("{page}", "1").replace("{pages}", "1")),
      );
    });

    it(`prints the reverse charge with both VAT numbers (${locale})`, async () => {
      const text = await textOf(await renderInvoicePdf(reverseChargeInvoice, locale));
      expect(text).toContain("2026-000125");
      expect(text).toContain("FR40123456789");
      expect(text).toContain("DE129273398");
      expect(text).toContain("Beispiel GmbH");
      expect(text).toContain(titles[locale].reverseCharge);
      expect(text).toContain(money(0, "EUR", locale));
      // A long sentence may wrap anywhere (after "2006/112/"): compared without its spaces.
      expect(compact(text)).toContain(compact(invoiceMessages[locale].reverseCharge));
    });

    it(`prints a credit note that names the invoice it corrects (${locale})`, async () => {
      const text = await textOf(await renderInvoicePdf(creditNote, locale));
      expect(text.startsWith(titles[locale].creditNote)).toBe(true);
      expect(text).toContain("CN-2026-000007");
      const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
        corrected.issuedAt,
      );
      expect(compact(text)).toContain(
        compact(
          invoiceMessages[locale].corrects.replace("{number}", corrected.number).replace("{date}", date),
        ),
      );
      expect(text).toContain(money(1200, "EUR", locale));
    });
  }

  it("prints a Hungarian name, its country, the 27 % rate and odd amounts exactly", async () => {
    const text = await textOf(await renderInvoicePdf(hungarianInvoice, "fr"));
    expect(text).toContain("Kovács Ödön Űrhajós");
    expect(text).toContain("Fő utca 12. 1011 Budapest Hongrie");
    expect(text).toContain("27 %");
    expect(text).toContain("1 234,56 €");
    expect(text).toContain("333,33 €");
    expect(text).toContain("1 567,89 €");
    expect(text).toContain("Lieu de la prestation : Hongrie");
  });

  it("says why no VAT was charged outside the covered countries, and where the platform is not registered", async () => {
    const untaxed = {
      ...reverseChargeInvoice,
      buyer: { email: "sam@example.com", country: "US" },
      vatCountry: null,
    };
    const outside = await textOf(await renderInvoicePdf({ ...untaxed, scheme: "outside" }, "en"));
    expect(outside).toContain("VAT not applicable");
    expect(outside).toContain("United States");
    expect(outside).toContain("Article 58");
    expect(outside).not.toContain("Reverse charge");
    const spanish = await textOf(await renderInvoicePdf({ ...untaxed, scheme: "outside" }, "es"));
    expect(spanish).toContain("IVA no aplicable");
    expect(spanish).toContain("Estados Unidos");
    const uk = { ...untaxed, buyer: { email: "sam@example.co.uk", country: "GB" } };
    const notRegistered = await textOf(await renderInvoicePdf({ ...uk, scheme: "not-registered" }, "en"));
    expect(notRegistered).toContain("not registered for VAT in the customer's country (United Kingdom)");
  });

  it("gives the same bytes for the same document", async () => {
    const first = await renderInvoicePdf(hungarianInvoice, "es");
    const second = await renderInvoicePdf(hungarianInvoice, "es");
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
    expect(first.equals(second)).toBe(true);
    const other = await renderInvoicePdf(
      { ...hungarianInvoice, issuedAt: new Date("2026-11-04T00:00:00Z") },
      "es",
    );
    expect(other.equals(first)).toBe(false);
    // Dated from the document, never the clock (two renders in the same second would hide it).
    const { info } = await getMeta(new Uint8Array(first));
    expect(info).toMatchObject({ CreationDate: "D:20261103101500Z", ModDate: "D:20261103101500Z" });
  });
});

function sale(i: number): StatementSale {
  return {
    paidAt: new Date(Date.UTC(2026, 9, 1 + (i % 31), 12)),
    link: `Preset pack n°${String(i + 1).padStart(3, "0")}`,
    currency: "EUR",
    grossMinor: 1200,
    vatMinor: 200,
    feeMinor: 100,
    netMinor: 900,
  };
}

function statementOf(sales: StatementSale[]): CreatorStatement {
  return {
    period: { year: 2026, month: 10 },
    issuedAt: new Date("2026-11-01T02:00:00Z"),
    issuer: seller,
    creator: { name: "Kovács Ödön Űrhajós", email: "odon@example.hu" },
    totals: [
      {
        currency: "EUR",
        salesCount: sales.length,
        grossMinor: 1200 * sales.length,
        vatMinor: 200 * sales.length,
        feesMinor: 100 * sales.length,
        commissionsMinor: 4321,
        refundsMinor: 1200,
        netMinor: 900 * sales.length - 4321 - 1200,
      },
      {
        currency: "USD",
        salesCount: 2,
        grossMinor: 3000,
        vatMinor: 0,
        feesMinor: 300,
        commissionsMinor: 0,
        refundsMinor: 0,
        netMinor: 2700,
      },
    ],
    sales,
  };
}

describe("monthly statement PDFs", () => {
  for (const locale of locales) {
    it(`prints the period, the creator and each currency's totals (${locale})`, async () => {
      const statement = statementOf([0, 1, 2].map(sale));
      const text = await textOf(await renderStatementPdf(statement, locale));
      const m = invoiceMessages[locale];
      const period = new Intl.DateTimeFormat(locale, {
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      }).format(Date.UTC(2026, 9, 1));
      expect(text.startsWith(m.statementTitle)).toBe(true);
      expect(text).toContain(flat(m.period.replace("{period}", period)));
      expect(text).toContain("Kovács Ödön Űrhajós");
      expect(text).toContain("odon@example.hu");
      const eur = (minor: number) => money(minor, "EUR", locale);
      expect(text).toContain(
        [
          m.totalsIn.replace("{currency}", "EUR"),
          `${m.salesCount} 3`,
          `${m.gross} ${eur(3600)}`,
          `${m.colVat} ${eur(600)}`,
          `${m.fees} ${eur(300)}`,
          `${m.commissions} ${eur(4321)}`,
          `${m.refunds} ${eur(1200)}`,
          `${m.net} ${eur(2700 - 4321 - 1200)}`,
        ]
          .map(flat)
          .join(" "),
      );
      expect(text).toContain(`${flat(m.totalsIn.replace("{currency}", "USD"))} ${m.salesCount} 2`);
      expect(text).toContain(`${m.net} ${money(2700, "USD", locale)}`);
      expect(text).toContain("Preset pack n°003");
    });
  }

  it("runs 500 sales over several pages, the header on each, no row lost", async () => {
    const sales = Array.from({ length: 500 }, (_, i) => sale(i));
    const pdf = await renderStatementPdf(statementOf(sales), "en");
    const all = await pages(pdf);
    expect(all.length).toBeGreaterThanOrEqual(5);
    const text = all.join(" ");
    for (let i = 1; i <= 500; i++) {
      expect(text).toContain(`Preset pack n°${String(i).padStart(3, "0")} €12.00 €2.00 €1.00 €9.00`);
    }
    all.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${all.length}`);
      if (i > 0) expect(page).toContain("Date Link Gross VAT Fee Net");
    });
    expect(text).toContain("Sales 500");
    expect(text).toContain("Gross €6,000.00");
  });

  it("says so when the month had no sale", async () => {
    const text = await textOf(await renderStatementPdf(statementOf([]), "fr"));
    expect(text).toContain("Aucune vente ce mois-ci.");
  });
});

describe("the PDFs' catalogue", () => {
  it("has every message in every language, with the same placeholders", () => {
    const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const keys = Object.keys(invoiceMessages.en).sort();
    for (const locale of locales) {
      expect(Object.keys(invoiceMessages[locale]).sort()).toEqual(keys);
      for (const key of keys) {
        const message = invoiceMessages[locale][key as keyof typeof invoiceMessages.en];
        expect(message, `${locale}.${key}`).toBeTruthy();
        expect(placeholders(message), `${locale}.${key}`).toEqual(
          placeholders(invoiceMessages.en[key as keyof typeof invoiceMessages.en]),
        );
      }
    }
  });
});
