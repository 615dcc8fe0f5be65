/**
 * Invoice PDFs (issue 22: "invoice generation measured, PDFs per second"): invoices and credit notes,
 * then creators' monthly statements of 200 sales, rendered in the bench process by the API's own
 * renderer (apps/api/src/modules/invoices/pdf.ts), one after the other on one core, as the API renders
 * them. Documents vary in language, VAT scheme and buyer (a Hungarian name, a business with a VAT
 * number); a warm-up is discarded. Reported: PDFs per second and mean size for each kind.
 */
import type { Locale } from "@salelink/contracts";
import type {
  CreatorStatement,
  InvoiceDocument,
  StatementSale,
} from "../../apps/api/src/modules/invoices/document.ts";
import { renderInvoicePdf, renderStatementPdf } from "../../apps/api/src/modules/invoices/pdf.ts";
import { count, log } from "./context.ts";
import type { Options } from "./options.ts";
import { markers, type RunInfo } from "./report.ts";
import { markdownTable } from "./report-more.ts";

/** Sales on each statement (the "monthly statement" of a busy creator). */
export const STATEMENT_ROWS = 200;
/** One statement rendered for this many invoices. */
const INVOICES_PER_STATEMENT = 20;
const WARMUP = 50;

export interface RenderStats {
  documents: number;
  seconds: number;
  perSecond: number;
  meanBytes: number;
  /** Pages of the last document: a statement's table runs over several. */
  pages: number;
}

export interface InvoicesResult {
  invoices: RenderStats;
  statements: RenderStats & { rows: number };
}

/** Seconds the scenario may take, for the run's watchdog (a slow machine renders 50 invoices a second). */
export function invoicesSeconds(options: Options): number {
  return Math.ceil(options.invoices / 50) + 60;
}

const locales: Locale[] = ["en", "fr", "es"];
const seller = {
  name: "SaleLink SAS",
  address: ["12 rue de la Paix", "75002 Paris", "France"],
  vatNumber: "FR40123456789",
};

/** The i-th invoice: a French, a Hungarian, a German business (reverse charge) or a US buyer; one in ten a credit note. */
function invoice(i: number): InvoiceDocument {
  const year = 2026;
  const number = String(i + 1).padStart(6, "0");
  const issuedAt = new Date(Date.UTC(year, 10, 1 + (i % 28), 9, i % 60));
  const net = 500 + ((i * 37) % 9_500);
  const kind = i % 4;
  const base = {
    kind: "invoice" as const,
    number: `${year}-${number}`,
    issuedAt,
    supplyDate: issuedAt,
    currency: "EUR",
    seller,
    orderReference: `ord_bench_${number}`,
  };
  const taxed = (country: string, bps: number, buyer: InvoiceDocument["buyer"]): InvoiceDocument => {
    const vat = Math.round((net * bps) / 10_000);
    return {
      ...base,
      buyer,
      lines: [
        {
          description: `Preset pack n°${i % 500}`,
          creator: "Jeanne Martin",
          quantity: 1,
          netMinor: net,
          vatRateBps: bps,
          vatMinor: vat,
          grossMinor: net + vat,
        },
      ],
      netMinor: net,
      vatMinor: vat,
      totalMinor: net + vat,
      vatRateBps: bps,
      vatCountry: bps > 0 ? country : null,
      scheme: "standard",
    };
  };
  let doc: InvoiceDocument;
  if (kind === 0)
    doc = taxed("FR", 2000, { email: `buyer${i}@example.fr`, name: "Claire Dubois", country: "FR" });
  else if (kind === 1) {
    doc = taxed("HU", 2700, {
      email: `buyer${i}@example.hu`,
      name: "Kovács Ödön Űrhajós",
      address: ["Fő utca 12.", "1011 Budapest"],
      country: "HU",
    });
  } else if (kind === 2) {
    doc = {
      ...taxed("DE", 0, {
        email: `einkauf${i}@example.de`,
        name: "Beispiel GmbH",
        address: ["Hauptstraße 5", "10115 Berlin"],
        country: "DE",
        vatNumber: "DE129273398",
      }),
      scheme: "reverse-charge",
    };
  } else doc = { ...taxed("US", 0, { email: `buyer${i}@example.com`, country: "US" }), scheme: "outside" };
  if (i % 10 !== 9) return doc;
  return {
    ...doc,
    kind: "credit-note",
    number: `CN-${year}-${number}`,
    refersTo: { number: doc.number, issuedAt: new Date(issuedAt.getTime() - 86_400_000) },
  };
}

function statement(i: number): CreatorStatement {
  const sales: StatementSale[] = Array.from({ length: STATEMENT_ROWS }, (_, s) => {
    const gross = 1200 + ((s * 53) % 4_000);
    const vat = Math.round(gross / 6);
    const fee = Math.round((gross - vat) / 10);
    return {
      paidAt: new Date(Date.UTC(2026, 9, 1 + (s % 31), s % 24)),
      link: s % 9 === 0 ? "Field recordings of the Danube at dawn, 24-bit, with notes" : `Preset pack n°${s}`,
      currency: "EUR",
      grossMinor: gross,
      vatMinor: vat,
      feeMinor: fee,
      netMinor: gross - vat - fee,
    };
  });
  const sum = (pick: (s: StatementSale) => number) => sales.reduce((total, s) => total + pick(s), 0);
  return {
    period: { year: 2026, month: 10 },
    issuedAt: new Date(Date.UTC(2026, 10, 1, 2)),
    issuer: seller,
    creator: { name: `Kovács Ödön Űrhajós ${i}`, email: `creator${i}@example.hu` },
    totals: [
      {
        currency: "EUR",
        salesCount: sales.length,
        grossMinor: sum((s) => s.grossMinor),
        vatMinor: sum((s) => s.vatMinor),
        feesMinor: sum((s) => s.feeMinor),
        commissionsMinor: 0,
        refundsMinor: 0,
        netMinor: sum((s) => s.netMinor),
      },
    ],
    sales,
  };
}

/** A PDF's page count, from its page tree's "/Count n" (pdfkit writes one, uncompressed). */
function pageCount(pdf: Buffer): number {
  const match = /\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString("latin1"));
  return match ? Number(match[1]) : 0;
}

async function measure(documents: number, render: (i: number) => Promise<Buffer>): Promise<RenderStats> {
  for (let i = 0; i < Math.min(WARMUP, documents); i++) await render(i);
  let bytes = 0;
  let last: Buffer = Buffer.alloc(0);
  const started = process.hrtime.bigint();
  for (let i = 0; i < documents; i++) {
    last = await render(i);
    bytes += last.length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    documents,
    seconds,
    perSecond: documents / seconds,
    meanBytes: bytes / documents,
    pages: pageCount(last),
  };
}

export async function runInvoices(options: Options): Promise<InvoicesResult> {
  const invoices = await measure(options.invoices, (i) =>
    renderInvoicePdf(invoice(i), locales[i % 3] ?? "en"),
  );
  log(`  ${count.format(invoices.documents)} invoices: ${count.format(invoices.perSecond)} PDFs/s`);
  const statements = await measure(Math.max(10, Math.round(options.invoices / INVOICES_PER_STATEMENT)), (i) =>
    renderStatementPdf(statement(i), locales[i % 3] ?? "en"),
  );
  log(`  ${count.format(statements.documents)} statements: ${statements.perSecond.toFixed(1)} PDFs/s`);
  return { invoices, statements: { ...statements, rows: STATEMENT_ROWS } };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

export function invoicesSummary(r: InvoicesResult): string[] {
  return [
    `invoices: ${count.format(r.invoices.documents)} invoice PDFs in ${r.invoices.seconds.toFixed(1)} s ` +
      `(${count.format(r.invoices.perSecond)}/s, mean ${kib(r.invoices.meanBytes)} KiB)`,
    `invoices: ${count.format(r.statements.documents)} statements of ${r.statements.rows} sales in ` +
      `${r.statements.seconds.toFixed(1)} s (${r.statements.perSecond.toFixed(1)}/s, mean ${kib(r.statements.meanBytes)} KiB, ` +
      `${r.statements.pages} pages)`,
  ];
}

/** The "Invoice PDFs" section of docs/benchmarks.md. */
export function invoicesSection(info: RunInfo, r: InvoicesResult): string {
  const { start: begin, end } = markers("invoices");
  const row = (name: string, s: RenderStats) => [
    name,
    count.format(s.documents),
    String(s.pages),
    s.seconds.toFixed(1),
    s.perSecond < 10 ? s.perSecond.toFixed(1) : count.format(s.perSecond),
    kib(s.meanBytes),
  ];
  const table = markdownTable(
    ["Document", "Rendered", "Pages", "Time (s)", "PDFs/s", "Mean size (KiB)"],
    [
      row("Invoice or credit note", r.invoices),
      row(`Monthly statement, ${r.statements.rows} sales`, r.statements),
    ],
    new Set([1, 2, 3, 4, 5]),
  );
  return `${begin}
<!-- Generated by \`npm run bench\` (bench/run.ts); edits between these markers are overwritten. -->

## Invoice PDFs

Issue 22: every paid order gets an invoice PDF, every refund a credit note, every creator a monthly
statement. The API's renderer (\`apps/api/src/modules/invoices/pdf.ts\`, pdfkit with an embedded
DejaVu subset) runs in the bench process, one document after the other on one core, after a
warm-up of ${WARMUP}; the documents rotate over English, French and Spanish, a French and a Hungarian
consumer, a business under reverse charge and a buyer outside the EU, one in ten a credit note
(\`bench/lib/invoices.ts\`). Pages: the last document's.

${table}

Measured ${info.date.toISOString().replace(/\.\d+Z$/, "Z")} on ${info.cpus} CPUs (${info.cpuModel}), Node ${info.node},
1-minute load average ${info.loadAverage.toFixed(2)} at the start of the run.
${end}`;
}
