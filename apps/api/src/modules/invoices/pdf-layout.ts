import { readFileSync } from "node:fs";
// Not `import { createRequire }`: the API bundle's banner declares that name already (bundle.mjs).
import nodeModule from "node:module";
import type { Locale } from "@salelink/contracts";
import { type Font, create as parseFont } from "fontkit";
import PDFDocument from "pdfkit";
import { type InvoiceMessageKey, invoiceMessages } from "./messages.ts";

declare global {
  namespace PDFKit.Mixins {
    interface PDFFont {
      /** pdfkit also takes a font fontkit has parsed (its font factory keeps any object with `layout`). */
      registerFont(name: string, src: Font): this;
    }
  }
}

/*
 * The pieces the invoice and statement renderers share: the document, its fonts, words, dates, a
 * table that breaks across pages, and the page footer. Pure: nothing here reads the database.
 */

export type Pdf = PDFKit.PDFDocument;

/** A4 in points, and the margin on every side. */
export const MARGIN = 50;
export const PAGE_SIZE = "A4";
/** Room kept free at the bottom of every page for the footer. */
const FOOTER_SPACE = 30;

// PDF's built-in Helvetica has no ő or ű (Hungarian names): DejaVu covers Latin, Greek and Cyrillic.
// The package stays outside the API's bundle, so its files are found in node_modules at run time.
const packages = nodeModule.createRequire(import.meta.url);
const fontFiles = {
  regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
} as const;
type FontName = keyof typeof fontFiles;
let fonts: Record<FontName, Font> | undefined;

function parse(file: string): Font {
  const font = parseFont(readFileSync(packages.resolve(file)));
  if (!("layout" in font)) throw new Error(`${file} is a font collection, not a font`);
  return font;
}

/**
 * Parsed once, on first use, and shared by every document, each of which embeds a subset of the
 * glyphs it prints: parsing the two files for each document took six times as long as the rest.
 */
function loadFonts(): Record<FontName, Font> {
  fonts ??= { regular: parse(fontFiles.regular), bold: parse(fontFiles.bold) };
  return fonts;
}

/**
 * A new document whose metadata come from the document itself (its date, no clock, no random id),
 * so the same input always gives the same bytes.
 */
export function createPdf(locale: Locale, title: string, createdAt: Date): Pdf {
  const pdf = new PDFDocument({
    size: PAGE_SIZE,
    margin: MARGIN,
    // No default font: pdfkit would parse Helvetica's metrics for every document, never to use them.
    font: "",
    bufferPages: true,
    lang: locale,
    displayTitle: true,
    info: {
      Title: title,
      CreationDate: createdAt,
      ModDate: createdAt,
      Producer: "salelink",
      Creator: "salelink",
    },
  });
  const files = loadFonts();
  pdf.registerFont("regular", files.regular);
  pdf.registerFont("bold", files.bold);
  pdf.font("regular");
  return pdf;
}

/** The finished document's bytes. */
export function finish(pdf: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.end();
  });
}

/** A catalogue message with its `{name}` placeholders filled; a missing value throws. */
export function word(locale: Locale, key: InvoiceMessageKey, values: Record<string, string> = {}): string {
  return invoiceMessages[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Invoice message ${key} has no value for {${name}}`);
    return value;
  });
}

/** Intl's formatters are slow to build and cheap to use: one per language and style, kept. */
function memo<T>(build: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = build(key);
      cache.set(key, value);
    }
    return value;
  };
}

const dateFormats = memo((key) => {
  const [locale, style] = key.split(":") as [Locale, "long" | "medium"];
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: "UTC" });
});
const rateFormats = memo(
  (locale) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }),
);
const regionNames = memo((locale) => new Intl.DisplayNames([locale], { type: "region" }));

/** Dates are the calendar day in UTC, the day the ledger and the numbering series use. */
export function formatDate(date: Date, locale: Locale, style: "long" | "medium" = "long"): string {
  return dateFormats(`${locale}:${style}`).format(date);
}

/** A rate in basis points as a percentage in the language ("20%", "20 %", "5.5%"). */
export function formatRate(bps: number, locale: Locale): string {
  return rateFormats(locale).format(bps / 10_000);
}

/** The country's name in the language, e.g. "Hongrie" for HU in French. */
export function countryName(code: string, locale: Locale): string {
  return regionNames(locale).of(code) ?? code;
}

/** Lowest y a row may reach before the table continues on a new page. */
export function bottom(pdf: Pdf): number {
  return pdf.page.height - MARGIN - FOOTER_SPACE;
}

export interface Column {
  width: number;
  align?: "left" | "right";
}

/** Cuts a text to one line of `width` points, ending in "…" when it had to be cut. */
export function fitLine(pdf: Pdf, text: string, width: number): string {
  if (pdf.widthOfString(text) <= width) return text;
  let end = text.length;
  while (end > 0 && pdf.widthOfString(`${text.slice(0, end)}…`) > width) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * Draws one row of cells from `x` (the left margin unless given) at the current y. Cells wrap unless
 * `oneLine`, in which case each is cut to its column.
 */
export function drawRow(
  pdf: Pdf,
  columns: Column[],
  cells: string[],
  {
    font = "regular",
    size = 9,
    oneLine = false,
    x = MARGIN,
  }: { font?: FontName; size?: number; oneLine?: boolean; x?: number } = {},
): void {
  pdf.font(font).fontSize(size);
  const y = pdf.y;
  const padding = 4;
  let left = x;
  // One-line rows are as high as a line: no need to lay each cell out twice to know it.
  let height = oneLine ? pdf.currentLineHeight(true) : 0;
  columns.forEach((column, i) => {
    const inner = column.width - padding;
    const raw = cells[i] ?? "";
    const text = oneLine ? fitLine(pdf, raw, inner) : raw;
    const options = { width: inner, align: column.align ?? "left", lineBreak: !oneLine } as const;
    if (!oneLine) height = Math.max(height, pdf.heightOfString(text, options));
    // The gap between two columns goes before a right-aligned cell and after a left-aligned one.
    pdf.text(text, column.align === "right" ? left + padding : left, y, options);
    left += column.width;
  });
  pdf.y = y + height + 3;
  pdf.x = MARGIN;
}

/** A thin rule across the page at the current y. */
export function rule(pdf: Pdf): void {
  pdf
    .moveTo(MARGIN, pdf.y)
    .lineTo(pdf.page.width - MARGIN, pdf.y)
    .lineWidth(0.5)
    .strokeColor("#999999")
    .stroke();
  pdf.y += 3;
}

/**
 * Rows under a header that repeats on every page: before a row that would run into the footer, a
 * new page starts with the header again.
 */
export function drawTable(
  pdf: Pdf,
  columns: Column[],
  header: string[],
  rows: string[][],
  { size = 9, oneLine = false }: { size?: number; oneLine?: boolean } = {},
): void {
  const drawHeader = () => {
    drawRow(pdf, columns, header, { font: "bold", size });
    rule(pdf);
  };
  drawHeader();
  const lineHeight = pdf.font("regular").fontSize(size).currentLineHeight(true) + 3;
  for (const row of rows) {
    if (pdf.y + lineHeight > bottom(pdf)) {
      pdf.addPage();
      drawHeader();
    }
    drawRow(pdf, columns, row, { size, oneLine });
  }
}

/** "Page n of m" (and the given text) at the foot of every page, once the whole document is laid out. */
export function footers(pdf: Pdf, locale: Locale, left: string): void {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    // Writing inside the bottom margin would otherwise make pdfkit start a new page.
    const margin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const y = pdf.page.height - MARGIN;
    const width = pdf.page.width - 2 * MARGIN;
    pdf.font("regular").fontSize(7).fillColor("#555555");
    pdf.text(fitLine(pdf, left, width - 90), MARGIN, y, { width: width - 90, lineBreak: false });
    pdf.text(word(locale, "page", { page: String(i + 1), pages: String(range.count) }), MARGIN, y, {
      width,
      align: "right",
      lineBreak: false,
    });
    pdf.fillColor("#000000");
    pdf.page.margins.bottom = margin;
  }
}
