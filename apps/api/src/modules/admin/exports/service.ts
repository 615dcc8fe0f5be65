import { randomBytes } from "node:crypto";
import type { PayoutExportQuery } from "@salelink/contracts";
import { minorToDecimal } from "@salelink/contracts/money";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import { csvDocument } from "../../../lib/csv.ts";
import { AppError } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { ibanBox } from "../../payouts/bank-accounts/service.ts";
import { pain001Xml } from "./pain001.ts";
import { payoutsToExport } from "./queries.ts";

/*
 * The payouts bank export: the operator downloads the payouts to pay (approved: "processing") as a
 * CSV or a SEPA credit transfer file for the bank. The files hold full IBANs, opened from their
 * sealed form here only; each download is written to the audit log.
 */

export interface ExportRow {
  id: string;
  holderName: string;
  /** Null when the account was deleted after the request: only its masked form is left. */
  iban: string | null;
  bic: string | null;
  amountMinor: number;
  currency: string;
  requestedAt: Date;
}

/** What the payee's bank statement shows: whose payout it is, findable in the console by its id. */
const reference = (config: Config, id: string) => `${config.PLATFORM_NAME} payout ${id}`;

export function payoutsCsv(config: Config, rows: ExportRow[]): string {
  const header = ["id", "holder", "iban", "bic", "amount", "currency", "reference", "requested_at"];
  return csvDocument(
    header,
    rows.map((r) => [
      r.id,
      r.holderName,
      r.iban,
      r.bic,
      minorToDecimal(r.amountMinor, r.currency),
      r.currency,
      reference(config, r.id),
      r.requestedAt.toISOString(),
    ]),
  );
}

/** The SEPA file: euro payouts with a full IBAN only; the others are counted as skipped. */
export function payoutsPain001(config: Config, rows: ExportRow[], now: Date) {
  const iban = config.PLATFORM_IBAN;
  if (!iban) {
    throw new AppError(
      "ConflictException",
      "Set PLATFORM_IBAN (and PLATFORM_BIC) in the API's configuration to export a SEPA transfer file.",
    );
  }
  const included = rows.flatMap((r) => (r.currency === "EUR" && r.iban ? [{ ...r, iban: r.iban }] : []));
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
      remittance: reference(config, r.id),
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
    const rows: ExportRow[] = (await payoutsToExport(tx, status)).map(({ ibanSealed, ...row }) => ({
      ...row,
      iban: ibanSealed ? box.open(ibanSealed) : null,
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
