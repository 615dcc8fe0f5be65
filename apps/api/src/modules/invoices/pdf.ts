import type { Locale } from "@salelink/contracts";
import { formatMoney } from "@salelink/contracts/money";
import type { CreatorStatement, InvoiceBuyer, InvoiceDocument, InvoiceParty } from "./document.ts";
import {
  type Column,
  countryName,
  createPdf,
  drawRow,
  drawTable,
  finish,
  footers,
  formatDate,
  formatRate,
  MARGIN,
  type Pdf,
  rule,
  word,
} from "./pdf-layout.ts";

/*
 * Invoices, credit notes and creators' monthly statements as PDFs (issue 22), pure functions of
 * their documents: an invoice carries what Article 226 of Directive 2006/112/EC requires (sequential
 * number, dates of issue and supply, both parties, description, quantity, unit price net, rate, VAT,
 * total, currency, and the mention its VAT scheme needs). Everything printed is in the document's
 * language; the same input gives the same bytes.
 */

const CONTENT_WIDTH = 495;
const HALF = 240;

/** Two blocks side by side (the supplier and the customer): their lines, the first one bold. */
function parties(pdf: Pdf, left: string[], right: string[]): void {
  const top = pdf.y;
  let lowest = top;
  for (const [x, lines] of [
    [MARGIN, left],
    [MARGIN + HALF + 15, right],
  ] as const) {
    pdf.y = top;
    lines.forEach((line, i) => {
      pdf
        .font(i === 0 ? "bold" : "regular")
        .fontSize(i === 0 ? 10 : 9)
        .text(line, x, pdf.y, { width: HALF });
    });
    lowest = Math.max(lowest, pdf.y);
  }
  pdf.x = MARGIN;
  pdf.y = lowest + 12;
}

function sellerLines(seller: InvoiceParty, heading: string, locale: Locale): string[] {
  return [heading, seller.name, ...seller.address, word(locale, "vatNumber", { number: seller.vatNumber })];
}

function buyerLines(buyer: InvoiceBuyer, locale: Locale): string[] {
  const lines = [word(locale, "buyer")];
  if (buyer.name) lines.push(buyer.name);
  lines.push(word(locale, "email", { email: buyer.email }));
  const country = countryName(buyer.country, locale);
  const address = buyer.address ?? [];
  lines.push(...address);
  if (address.at(-1) !== country) lines.push(country);
  if (buyer.vatNumber) lines.push(word(locale, "vatNumber", { number: buyer.vatNumber }));
  return lines;
}

/** Label and value pairs in a block `width` wide from `x`, the values aligned right. */
function keyValues(
  pdf: Pdf,
  rows: [string, string][],
  { boldLast = false, x = MARGIN + CONTENT_WIDTH - 280, width = 280 } = {},
): void {
  const columns: Column[] = [{ width: width - 120 }, { width: 120, align: "right" }];
  rows.forEach(([label, value], i) => {
    const bold = boldLast && i === rows.length - 1;
    drawRow(pdf, columns, [label, value], { font: bold ? "bold" : "regular", x });
  });
}

/** The VAT scheme's mention: the rule applied, or why no VAT was charged. */
function schemeMention(doc: InvoiceDocument, locale: Locale): string {
  const country = countryName(doc.vatCountry ?? doc.buyer.country, locale);
  switch (doc.scheme) {
    case "standard":
      return word(locale, "placeOfSupply", { country });
    case "reverse-charge":
      return word(locale, "reverseCharge");
    case "outside":
      return word(locale, "outside", { country });
    case "not-registered":
      return word(locale, "notRegistered", { country });
  }
}

/** An invoice or a credit note in `locale`, as PDF bytes. */
export function renderInvoicePdf(doc: InvoiceDocument, locale: Locale): Promise<Buffer> {
  const title = word(locale, doc.kind === "invoice" ? "invoiceTitle" : "creditNoteTitle");
  const pdf = createPdf(locale, `${title} ${doc.number}`, doc.issuedAt);
  const money = (minor: number) => formatMoney(minor, doc.currency, locale);

  pdf.font("bold").fontSize(20).text(title);
  pdf.moveDown(0.5);
  for (const row of [
    [word(locale, "number"), doc.number],
    [word(locale, "issuedAt"), formatDate(doc.issuedAt, locale)],
    [word(locale, "supplyDate"), formatDate(doc.supplyDate, locale)],
    [word(locale, "orderReference"), doc.orderReference],
  ]) {
    drawRow(pdf, [{ width: 130 }, { width: 250 }], row);
  }
  if (doc.refersTo) {
    pdf.moveDown(0.3);
    pdf
      .font("bold")
      .fontSize(9)
      .text(
        word(locale, "corrects", {
          number: doc.refersTo.number,
          date: formatDate(doc.refersTo.issuedAt, locale),
        }),
        MARGIN,
        pdf.y,
        { width: CONTENT_WIDTH },
      );
  }
  pdf.moveDown(1.5);
  parties(pdf, sellerLines(doc.seller, word(locale, "seller"), locale), buyerLines(doc.buyer, locale));

  const columns: Column[] = [
    { width: 185 },
    { width: 40, align: "right" },
    { width: 70, align: "right" },
    { width: 55, align: "right" },
    { width: 65, align: "right" },
    { width: 80, align: "right" },
  ];
  drawTable(
    pdf,
    columns,
    (["colDescription", "colQuantity", "colUnitNet", "colVatRate", "colVat", "colTotal"] as const).map(
      (key) => word(locale, key),
    ),
    doc.lines.map((line) => [
      `${line.description}\n${word(locale, "lineBy", { creator: line.creator })}`,
      String(line.quantity),
      money(line.netMinor),
      formatRate(line.vatRateBps, locale),
      money(line.vatMinor),
      money(line.grossMinor),
    ]),
  );
  rule(pdf);
  pdf.moveDown(0.5);
  keyValues(
    pdf,
    [
      [word(locale, "totalNet"), money(doc.netMinor)],
      [word(locale, "totalVat", { rate: formatRate(doc.vatRateBps, locale) }), money(doc.vatMinor)],
      [
        word(locale, doc.kind === "invoice" ? "total" : "totalCredited", { currency: doc.currency }),
        money(doc.totalMinor),
      ],
    ],
    { boldLast: true },
  );

  pdf.moveDown(1.5);
  pdf
    .font(doc.scheme === "standard" ? "regular" : "bold")
    .fontSize(9)
    .text(schemeMention(doc, locale), MARGIN, pdf.y, { width: CONTENT_WIDTH });
  pdf.moveDown(0.5);
  pdf
    .font("regular")
    .fontSize(8)
    .text(word(locale, "deemedSupplier", { seller: doc.seller.name }), { width: CONTENT_WIDTH });

  footers(pdf, locale, `${doc.seller.name} · ${title} ${doc.number}`);
  return finish(pdf);
}

/** A creator's monthly statement in `locale`, as PDF bytes; the sales table runs over as many pages as it needs. */
export function renderStatementPdf(statement: CreatorStatement, locale: Locale): Promise<Buffer> {
  const title = word(locale, "statementTitle");
  const period = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    Date.UTC(statement.period.year, statement.period.month - 1, 1),
  );
  const pdf = createPdf(locale, `${title} ${period}`, statement.issuedAt);

  pdf.font("bold").fontSize(20).text(title);
  pdf.moveDown(0.3);
  pdf
    .font("regular")
    .fontSize(11)
    .text(word(locale, "period", { period }));
  pdf.fontSize(9).text(word(locale, "statementIssued", { date: formatDate(statement.issuedAt, locale) }));
  pdf.moveDown(1.5);
  parties(pdf, sellerLines(statement.issuer, word(locale, "issuer"), locale), [
    word(locale, "creator"),
    statement.creator.name,
    word(locale, "email", { email: statement.creator.email }),
  ]);

  for (const totals of statement.totals) {
    const money = (minor: number) => formatMoney(minor, totals.currency, locale);
    pdf
      .font("bold")
      .fontSize(11)
      .text(word(locale, "totalsIn", { currency: totals.currency }), MARGIN);
    pdf.moveDown(0.3);
    keyValues(
      pdf,
      [
        [word(locale, "salesCount"), new Intl.NumberFormat(locale).format(totals.salesCount)],
        [word(locale, "gross"), money(totals.grossMinor)],
        [word(locale, "colVat"), money(totals.vatMinor)],
        [word(locale, "fees"), money(totals.feesMinor)],
        [word(locale, "commissions"), money(totals.commissionsMinor)],
        [word(locale, "refunds"), money(totals.refundsMinor)],
        [word(locale, "net"), money(totals.netMinor)],
      ],
      { boldLast: true, x: MARGIN, width: 300 },
    );
    pdf.moveDown(1);
  }

  pdf.font("bold").fontSize(11).text(word(locale, "salesTable"), MARGIN);
  pdf.moveDown(0.3);
  if (statement.sales.length === 0) {
    pdf.font("regular").fontSize(9).text(word(locale, "noSales"));
  } else {
    drawTable(
      pdf,
      [
        { width: 75 },
        { width: 180 },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
      ],
      [
        word(locale, "colDate"),
        word(locale, "colLink"),
        word(locale, "gross"),
        word(locale, "colVat"),
        word(locale, "colFee"),
        word(locale, "net"),
      ],
      statement.sales.map((sale) => {
        const money = (minor: number) => formatMoney(minor, sale.currency, locale);
        return [
          formatDate(sale.paidAt, locale, "medium"),
          sale.link,
          money(sale.grossMinor),
          money(sale.vatMinor),
          money(sale.feeMinor),
          money(sale.netMinor),
        ];
      }),
      { size: 8, oneLine: true },
    );
  }

  footers(pdf, locale, `${statement.issuer.name} · ${title} ${period} · ${statement.creator.name}`);
  return finish(pdf);
}
