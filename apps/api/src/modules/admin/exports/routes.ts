import { randomBytes } from "node:crypto";
import {
  PAYOUT_EXPORT_COUNT_HEADER,
  PAYOUT_EXPORT_SKIPPED_HEADER,
  type PayoutExportQuery,
  payoutExportQuerySchema,
} from "@salelink/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Config } from "../../../config.ts";
import type { Db, DbOrTx } from "../../../db/client.ts";
import { bankAccounts, payouts } from "../../../db/schema/index.ts";
import { csvField } from "../../../lib/csv.ts";
import { AppError } from "../../../lib/errors.ts";
import { audit } from "../../audit/queries.ts";
import { ibanBox } from "../../payouts/bank-accounts.ts";
import { decimalAmount, pain001Xml } from "./pain001.ts";

/*
 * The payouts bank export: the operator downloads the payouts to pay (approved: "processing") as a
 * CSV or a SEPA credit transfer file for the bank. The files hold full IBANs, opened from their
 * sealed form here only; each download is written to the audit log.
 */

interface ExportRow {
  id: string;
  holderName: string;
  /** Null when the account was deleted after the request: only its masked form is left. */
  iban: string | null;
  bic: string | null;
  amountMinor: number;
  currency: string;
  requestedAt: Date;
}

async function payoutsToExport(db: DbOrTx, config: Config, query: PayoutExportQuery): Promise<ExportRow[]> {
  const rows = await db
    .select({
      id: payouts.id,
      holderName: payouts.holderName,
      ibanSealed: bankAccounts.ibanSealed,
      bic: bankAccounts.bic,
      amountMinor: payouts.amountMinor,
      currency: payouts.currency,
      requestedAt: payouts.requestedAt,
    })
    .from(payouts)
    .leftJoin(
      bankAccounts,
      and(eq(bankAccounts.id, payouts.bankAccountId), eq(bankAccounts.ownerId, payouts.userId)),
    )
    .where(eq(payouts.status, query.status))
    .orderBy(asc(payouts.requestedAt), asc(payouts.id));
  const box = ibanBox(config);
  return rows.map(({ ibanSealed, ...row }) => ({ ...row, iban: ibanSealed ? box.open(ibanSealed) : null }));
}

/** What the payee's bank statement shows: whose payout it is, findable in the console by its id. */
const reference = (config: Config, id: string) => `${config.PLATFORM_NAME} payout ${id}`;

export function payoutsCsv(config: Config, rows: ExportRow[]): string {
  const header = ["id", "holder", "iban", "bic", "amount", "currency", "reference", "requested_at"];
  const lines = rows.map((r) =>
    [
      r.id,
      r.holderName,
      r.iban,
      r.bic,
      decimalAmount(r.amountMinor),
      r.currency,
      reference(config, r.id),
      r.requestedAt.toISOString(),
    ]
      .map(csvField)
      .join(","),
  );
  return [header.join(","), ...lines].map((l) => `${l}\r\n`).join("");
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

export const adminExportRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    "/admin/payouts/export",
    {
      config: { auth: "admin", maintenance: "allow" },
      schema: {
        tags: ["admin"],
        summary:
          "Download payouts for the bank (processing by default): CSV, or SEPA pain.001 XML of the euro ones",
        querystring: payoutExportQuerySchema,
      },
    },
    async (request, reply) => {
      const admin = await request.requireUser();
      const { format, status } = request.query;
      const now = new Date();
      const file = await db.transaction(async (tx) => {
        const rows = await payoutsToExport(tx, config, request.query);
        const out = exportFile(config, format, rows, now);
        // A read, but of full bank details: who downloaded which payouts is kept.
        await audit(tx, {
          actorId: admin.id,
          action: "payouts.export",
          targetType: "payout",
          targetId: status,
          reason: `Bank export (${format})`,
          details: { format, status, payoutIds: out.included, skipped: out.skipped },
        });
        return out;
      });
      const day = now.toISOString().slice(0, 10);
      const [type, name] =
        format === "csv"
          ? ["text/csv; charset=utf-8", `payouts-${status}-${day}.csv`]
          : ["application/xml; charset=utf-8", `payouts-${status}-${day}.pain001.xml`];
      return reply
        .type(type)
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .header(PAYOUT_EXPORT_COUNT_HEADER, String(file.included.length))
        .header(PAYOUT_EXPORT_SKIPPED_HEADER, String(file.skipped))
        .send(file.body);
    },
  );
};
