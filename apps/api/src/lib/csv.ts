/*
 * CSV fields for files opened in spreadsheets (RFC 4180). A cell that starts with =, +, -, @, a tab
 * or a carriage return is read as a formula by Excel, LibreOffice and Google Sheets ("CSV
 * injection"), so such text is prefixed with a quote. A plain decimal number is not text: "-12.50"
 * stays a number a spreadsheet can sum, and cannot run anything.
 */

/** An optional minus, digits, an optional fraction: nothing a spreadsheet could evaluate. */
const plainNumber = /^-?\d+(\.\d+)?$/;
const formulaLead = /^[=+\-@\t\r]/;

type Cell = string | number | null | undefined;

export function csvField(value: Cell): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (formulaLead.test(text) && !plainNumber.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole CSV file: a header line, then one line per row, every line ended by CRLF (RFC 4180), every
 * cell through `csvField`. The one writer of CSV in the API, so no export forgets the formula guard.
 */
export function csvDocument(header: readonly string[], rows: Iterable<readonly Cell[]>): string {
  const line = (cells: readonly Cell[]) => `${cells.map(csvField).join(",")}\r\n`;
  let text = line(header);
  for (const row of rows) text += line(row);
  return text;
}
