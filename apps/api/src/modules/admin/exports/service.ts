import { randomBytes } from "node:crypto";
import { europeanCountries, type PayoutExportQuery } from "@salelink/contracts";
import { minorToDecimal } from "@salelink/contracts/money";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { csvDocument } from "../../../lib/csv.ts";
import { AppError } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { ibanBox } from "../../payouts/bank-accounts/service.ts";
import { payoutReference } from "../../payouts/reference.ts";
import { pain001Xml } from "./pain001.ts";
import { payoutsToExport } from "./queries.ts";

/*
 * The payouts bank export: the operator downloads the payouts to pay (approved: "processing") as a
 * CSV or a SEPA credit transfer file for the bank. The files hold full account numbers, opened from
 * their sealed form here only; each download is written to the audit log. Since issue 23 a payout
 * goes to an IBAN (the 30 countries and Switzerland), a British account (sort code and account
 * number) or an American one (routing number, account number, type): SEPA's pain.001 carries the
 * euro payouts to IBANs, the CSV carries every payout with its account's own fields.
 */

/** The payee's account as the bank needs it, by kind. */
export type ExportAccount =
  | { kind: "iban"; country: string; iban: string; bic: string | null }
  | { kind: "gb"; country: string; sortCode: string; accountNumber: string }
  | { kind: "us"; country: string; routingNumber: string; accountNumber: string; accountType: string };

export interface ExportRow {
  id: string;
  holderName: string;
  /** Null when the account was deleted after the request: only its masked form is left. */
  account: ExportAccount | null;
  amountMinor: number;
  currency: string;
  requestedAt: Date;
}

/** The CSV's columns: those of before issue 23 first, so existing sheets keep reading them. */
export const payoutsCsvHeader = [
  "id",
  "holder",
  "iban",
  "bic",
  "amount",
  "currency",
  "reference",
  "requested_at",
  "kind",
  "country",
  "sort_code",
  "routing_number",
  "account_number",
  "account_type",
];

export function payoutsCsv(config: Config, rows: ExportRow[]): string {
  return csvDocument(
    payoutsCsvHeader,
    rows.map(({ account: a, ...r }) => [
      r.id,
      r.holderName,
      a?.kind === "iban" ? a.iban : null,
      a?.kind === "iban" ? a.bic : null,
      minorToDecimal(r.amountMinor, r.currency),
      r.currency,
      payoutReference(config, r.id),
      r.requestedAt.toISOString(),
      a?.kind ?? null,
      a?.country ?? null,
      a?.kind === "gb" ? a.sortCode : null,
      a?.kind === "us" ? a.routingNumber : null,
      a?.kind === "gb" || a?.kind === "us" ? a.accountNumber : null,
      a?.kind === "us" ? a.accountType : null,
    ]),
  );
}

/**
 * Whether SEPA can carry the payout: euros to an IBAN. Outside the EEA (Switzerland) SEPA still asks
 * for the payee bank's BIC, so a Swiss IBAN without one is left to the CSV.
 */
function sepaTransfer(row: ExportRow) {
  const a = row.account;
  if (row.currency !== "EUR" || a?.kind !== "iban") return null;
  if (!(europeanCountries as readonly string[]).includes(a.country) && !a.bic) return null;
  return { ...row, iban: a.iban, bic: a.bic };
}

/** The SEPA file: euro payouts to a full IBAN only; the others are counted as skipped. */
export function payoutsPain001(config: Config, rows: ExportRow[], now: Date) {
  const iban = config.PLATFORM_IBAN;
  if (!iban) {
    throw new AppError(
      "ConflictException",
      "Set PLATFORM_IBAN (and PLATFORM_BIC) in the API's configuration to export a SEPA transfer file.",
    );
  }
  const included = rows.flatMap((r) => {
    const transfer = sepaTransfer(r);
    return transfer ? [transfer] : [];
  });
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  const xml = pain001Xml({
    messageId: `SL${stamp}${randomBytes(4).toString("hex").toUpperCase()}`,
    createdAt: now,
    executionDate: now,
    debtor: { name: config.PLATFORM_NAME, iban, bic: config.PLATFORM_BIC ?? null },
    transfers: included.map((r) => ({
      endToEndId: r.id.replace(/-/g, ""),
      amountMinor: r.amountMinor,
      creditorName: r.holderName,
      creditorIban: r.iban,
      creditorBic: r.bic,
      remittance: payoutReference(config, r.id),
    })),
  });
  return { xml, included: included.map((r) => r.id), skipped: rows.length - included.length };
}

function exportFile(config: Config, format: PayoutExportQuery["format"], rows: ExportRow[], now: Date) {
  if (format === "csv")
    return { body: payoutsCsv(config, rows), included: rows.map((r) => r.id), skipped: 0 };
  const sepa = payoutsPain001(config, rows, now);
  return { body: sepa.xml, included: sepa.included, skipped: sepa.skipped };
}

type ExportedRow = Awaited<ReturnType<typeof payoutsToExport>>[number];

/** The row's account with its number opened; null when it is gone (or, never expected, incomplete). */
function accountOf(row: ExportedRow, open: (sealed: string) => string): ExportAccount | null {
  const { ibanSealed, kind, country, bankCode, accountType } = row;
  if (!ibanSealed || !kind || !country) return null;
  const number = open(ibanSealed);
  if (kind === "iban") return { kind, country, iban: number, bic: row.bic };
  if (!bankCode) return null;
  if (kind === "gb") return { kind, country, sortCode: bankCode, accountNumber: number };
  if (!accountType) return null;
  return { kind, country, routingNumber: bankCode, accountNumber: number, accountType };
}

/** The file's body and what it holds, with the download written to the audit log in one transaction. */
export async function exportPayouts(
  db: Db,
  config: Config,
  adminId: string,
  query: PayoutExportQuery,
  now: Date,
): Promise<{ body: string; included: string[]; skipped: number }> {
  const { format, status } = query;
  return db.transaction(async (tx) => {
    const box = ibanBox(config);
    const rows: ExportRow[] = (await payoutsToExport(tx, status)).map((row) => ({
      id: row.id,
      holderName: row.holderName,
      account: accountOf(row, (sealed) => box.open(sealed)),
      amountMinor: row.amountMinor,
      currency: row.currency,
      requestedAt: row.requestedAt,
    }));
    const out = exportFile(config, format, rows, now);
    // A read, but of full bank details: who downloaded which payouts is kept.
    await audit(tx, {
      actorId: adminId,
      action: "payouts.export",
      targetType: "payout",
      targetId: status,
      reason: `Bank export (${format})`,
      details: { format, status, payoutIds: out.included, skipped: out.skipped },
    });
    return out;
  });
}
