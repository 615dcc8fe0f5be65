import { minorToDecimal } from "@salelink/contracts/money";

/*
 * ISO 20022 customer credit transfer initiation, version pain.001.001.03 (the SEPA version banks
 * accept everywhere): one batch of euro transfers from the platform's account to the payees'.
 */

export interface Pain001Transfer {
  /** Ours, unique: the bank returns it with the transfer (EndToEndId, 35 characters at most). */
  endToEndId: string;
  amountMinor: number;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  remittance: string;
}

export interface Pain001Batch {
  messageId: string;
  createdAt: Date;
  executionDate: Date;
  debtor: { name: string; iban: string; bic: string | null };
  transfers: Pain001Transfer[];
}

/** Text as XML character data: the five special characters escaped, control characters dropped. */
export function xmlText(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

/** Euro minor units as the file's decimal, without a float: 123456 → "1234.56". */
export const decimalAmount = (minor: number): string => minorToDecimal(minor, "EUR");

/** SEPA limits names to 70 characters and the unstructured remittance to 140. */
const cut = (value: string, max: number) => Array.from(value.trim()).slice(0, max).join("");

const agent = (bic: string | null) =>
  bic
    ? `<FinInstnId><BIC>${xmlText(bic)}</BIC></FinInstnId>`
    : "<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>";

/** The file's XML text. Amounts are summed in minor units, so NbOfTxs and CtrlSum are exact. */
export function pain001Xml(batch: Pain001Batch): string {
  const count = batch.transfers.length;
  const total = decimalAmount(batch.transfers.reduce((sum, t) => sum + t.amountMinor, 0));
  // Without a zone, as most banks' SEPA profiles ask; the platform's clock is UTC.
  const created = batch.createdAt.toISOString().slice(0, 19);
  const execution = batch.executionDate.toISOString().slice(0, 10);
  const transfers = batch.transfers.map(
    (t) =>
      "<CdtTrfTxInf>" +
      `<PmtId><EndToEndId>${xmlText(cut(t.endToEndId, 35))}</EndToEndId></PmtId>` +
      `<Amt><InstdAmt Ccy="EUR">${decimalAmount(t.amountMinor)}</InstdAmt></Amt>` +
      (t.creditorBic ? `<CdtrAgt>${agent(t.creditorBic)}</CdtrAgt>` : "") +
      `<Cdtr><Nm>${xmlText(cut(t.creditorName, 70))}</Nm></Cdtr>` +
      `<CdtrAcct><Id><IBAN>${xmlText(t.creditorIban)}</IBAN></Id></CdtrAcct>` +
      `<RmtInf><Ustrd>${xmlText(cut(t.remittance, 140))}</Ustrd></RmtInf>` +
      "</CdtTrfTxInf>",
  );
  const messageId = xmlText(cut(batch.messageId, 35));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    "<CstmrCdtTrfInitn>",
    "<GrpHdr>",
    `<MsgId>${messageId}</MsgId>`,
    `<CreDtTm>${created}</CreDtTm>`,
    `<NbOfTxs>${count}</NbOfTxs>`,
    `<CtrlSum>${total}</CtrlSum>`,
    `<InitgPty><Nm>${xmlText(cut(batch.debtor.name, 70))}</Nm></InitgPty>`,
    "</GrpHdr>",
    "<PmtInf>",
    `<PmtInfId>${messageId}</PmtInfId>`,
    "<PmtMtd>TRF</PmtMtd>",
    "<BtchBookg>true</BtchBookg>",
    `<NbOfTxs>${count}</NbOfTxs>`,
    `<CtrlSum>${total}</CtrlSum>`,
    "<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>",
    `<ReqdExctnDt>${execution}</ReqdExctnDt>`,
    `<Dbtr><Nm>${xmlText(cut(batch.debtor.name, 70))}</Nm></Dbtr>`,
    `<DbtrAcct><Id><IBAN>${xmlText(batch.debtor.iban)}</IBAN></Id></DbtrAcct>`,
    `<DbtrAgt>${agent(batch.debtor.bic)}</DbtrAgt>`,
    "<ChrgBr>SLEV</ChrgBr>",
    ...transfers,
    "</PmtInf>",
    "</CstmrCdtTrfInitn>",
    "</Document>",
    "",
  ].join("\n");
}
