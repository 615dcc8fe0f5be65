import {
  type BankAccount,
  type Currency,
  PAYOUT_EXPORT_COUNT_HEADER,
  PAYOUT_EXPORT_SKIPPED_HEADER,
  type Payout,
} from "@salelink/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAuditLog, payouts } from "../../src/db/schema/index.ts";
import { csvField } from "../../src/lib/csv.ts";
import { decimalAmount, xmlText } from "../../src/modules/admin/exports/pain001.ts";
import {
  accountWithSession,
  directSessionCookie,
  errorOf,
  insertAccount,
  insertApprovedIdentity,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { creditReleasedSale } from "../support/ledger.ts";

let ctx: TestContext;
let admin: { id: string; cookie: string };

const PLATFORM_IBAN = "NL91ABNA0417164300";

type Method = "GET" | "POST";
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

const credit = (userId: string, grossMinor: number, currency: Currency) =>
  creditReleasedSale(ctx.database.db, userId, grossMinor, currency);

/** A creator's payout of `amount`, requested and approved by the admin: processing. */
async function processingPayout(params: {
  holderName: string;
  iban: string;
  bic?: string;
  /** Another kind of account than an IBAN (issue 23): the body as posted, instead of the IBAN's. */
  account?: object;
  amount: number;
  currency?: Currency;
  approve?: boolean;
}): Promise<Payout> {
  const currency = params.currency ?? "EUR";
  const account = await insertAccount(ctx.database, { onboarded: true });
  await insertApprovedIdentity(ctx.database, account.id);
  const cookie = await directSessionCookie(ctx.database, account.id);
  const bank = await call("POST", "/profile/bank-accounts", cookie, {
    holderName: params.holderName,
    iban: params.iban,
    ...(params.bic ? { bic: params.bic } : {}),
    ...params.account,
  });
  expect(bank.statusCode, bank.body).toBe(201);
  await credit(account.id, params.amount, currency);
  const res = await call("POST", "/profile/payout", cookie, {
    bankAccountId: bank.json<BankAccount>().id,
    currency,
    amount: params.amount,
  });
  expect(res.statusCode, res.body).toBe(201);
  const payout = res.json<Payout>();
  if (params.approve ?? true) {
    const approved = await call("POST", `/admin/payouts/${payout.id}/approve`, admin.cookie);
    expect(approved.statusCode, approved.body).toBe(200);
  }
  return payout;
}

// --- A small XML reader: enough to prove the file is well-formed and to read its structure ------

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const decode = (text: string) =>
  text.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[e] ?? "",
  );

/** Parses the XML or throws: unclosed, mismatched or stray tags, raw "&" or "<" in text. */
function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, "");
  const root: XmlElement = { name: "#root", attributes: {}, children: [], text: "" };
  const stack = [root];
  const token = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let consumed = 0;
  for (const m of body.matchAll(token)) {
    consumed += m[0].length;
    const top = stack.at(-1);
    if (!top) throw new Error("unbalanced");
    if (m[5] !== undefined) {
      if (/&(?!(lt|gt|amp|quot|apos);)/.test(m[5])) throw new Error(`raw & in ${m[5]}`);
      top.text += decode(m[5]);
      continue;
    }
    const [, closing, name = "", attrs = "", selfClosing] = m;
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of attrs.matchAll(/([\w:.-]+)="([^"]*)"/g)) attributes[a[1] ?? ""] = decode(a[2] ?? "");
    const element: XmlElement = { name, attributes, children: [], text: "" };
    top.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (consumed !== body.length) throw new Error(`not XML at ${consumed}`);
  if (stack.length !== 1 || root.children.length !== 1) throw new Error("unbalanced");
  const [document] = root.children;
  if (!document) throw new Error("empty");
  return document;
}

const child = (e: XmlElement | undefined, name: string) => e?.children.find((c) => c.name === name);
const children = (e: XmlElement | undefined, name: string) =>
  e?.children.filter((c) => c.name === name) ?? [];
const textAt = (e: XmlElement | undefined, ...names: string[]): string | undefined => {
  let at = e;
  for (const name of names) at = child(at, name);
  return at?.text.trim();
};

beforeAll(async () => {
  ctx = await testApp({ PLATFORM_NAME: "Salelink SAS", PLATFORM_IBAN, PLATFORM_BIC: "ABNANL2A" });
  admin = await accountWithSession(ctx.database, { onboarded: true, role: "admin" });
});
afterAll(() => ctx.close());

describe(`the payouts bank export (${dbKind})`, () => {
  it("the pieces: XML escaping and exact decimal amounts", () => {
    expect(xmlText(`Ada & "Bob" <Co> 'x'\u0001`)).toBe("Ada &amp; &quot;Bob&quot; &lt;Co&gt; &apos;x&apos;");
    expect([5, 100, 123456, 1_000_000_001].map(decimalAmount)).toEqual([
      "0.05",
      "1.00",
      "1234.56",
      "10000000.01",
    ]);
    expect(() => decimalAmount(0.1)).toThrow();
    // The reader below refuses what is not well-formed, so its checks mean something.
    expect(() => parseXml("<a><b></a></b>")).toThrow();
    expect(() => parseXml("<a>Ada & co</a>")).toThrow();
    expect(() => parseXml("<a>x</a><b/>")).toThrow();
    expect(parseXml('<a k="v">x &amp; y</a>')).toMatchObject({
      name: "a",
      attributes: { k: "v" },
      text: "x & y",
    });
  });

  it("exports the processing payouts as CSV with full IBANs and as a SEPA pain.001 of the euro ones", async () => {
    const a = await processingPayout({
      holderName: "Ada & <Lovelace>",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      amount: 1234,
    });
    const b = await processingPayout({
      holderName: '=HYPERLINK("x")',
      iban: "FR1420041010050500013M02606",
      amount: 100_001,
    });
    const gbp = await processingPayout({
      holderName: "Charles Babbage",
      iban: "BE68539007547034",
      // Pounds go to a UK account (issue 23).
      account: { kind: "gb", iban: undefined, sortCode: "200000", accountNumber: "55667788" },
      amount: 5000,
      currency: "GBP",
    });
    const requested = await processingPayout({
      holderName: "Not Yet",
      iban: "ES9121000418450200051332",
      amount: 1700,
      approve: false,
    });

    // CSV: every processing payout, euro or not; formula-safe; full IBANs.
    const csv = await call("GET", "/admin/payouts/export?format=csv", admin.cookie);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toMatch(
      /^attachment; filename="payouts-processing-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.headers["cache-control"]).toBe("no-store");
    const lines = csv.body.split("\r\n");
    expect(lines[0]).toBe(
      "id,holder,iban,bic,amount,currency,reference,requested_at,kind,country,sort_code,routing_number,account_number,account_type",
    );
    const row = (id: string) => lines.find((l) => l.startsWith(id)) ?? "";
    expect(row(a.id)).toContain(
      `${a.id},Ada & <Lovelace>,DE89370400440532013000,COBADEFFXXX,12.34,EUR,Salelink SAS payout ${a.id},`,
    );
    expect(row(b.id)).toContain(`${b.id},"'=HYPERLINK(""x"")",FR1420041010050500013M02606,,1000.01,EUR,`);
    expect(row(gbp.id)).toContain(",,,50.00,GBP,");
    expect(row(gbp.id)).toContain(",gb,GB,200000,,55667788,");
    expect(csv.body).not.toContain(requested.id);

    // pain.001: the euro ones only; the GBP one is counted as left out.
    const res = await call("GET", "/admin/payouts/export?format=pain001", admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("application/xml");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="payouts-processing-[\d-]+\.pain001\.xml"$/,
    );
    const euro = [a, b];
    const expectedSum = euro.reduce((s, p) => s + p.amount, 0);
    expect(res.headers[PAYOUT_EXPORT_SKIPPED_HEADER]).toBe("1");

    const doc = parseXml(res.body);
    expect(doc.name).toBe("Document");
    expect(doc.attributes.xmlns).toBe("urn:iso:std:iso:20022:tech:xsd:pain.001.001.03");
    const initiation = child(doc, "CstmrCdtTrfInitn");
    const header = child(initiation, "GrpHdr");
    const payment = child(initiation, "PmtInf");
    expect(textAt(header, "MsgId")?.length).toBeLessThanOrEqual(35);
    expect(textAt(header, "CreDtTm")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(textAt(header, "InitgPty", "Nm")).toBe("Salelink SAS");
    const count = Number(res.headers[PAYOUT_EXPORT_COUNT_HEADER]);
    // Other tests' payouts are not in this database: exactly ours.
    expect(count).toBe(2);
    expect(textAt(header, "NbOfTxs")).toBe("2");
    expect(textAt(payment, "NbOfTxs")).toBe("2");
    expect(textAt(header, "CtrlSum")).toBe(decimalAmount(expectedSum));
    expect(textAt(payment, "CtrlSum")).toBe("1012.35");
    expect(payment?.children.map((c) => c.name)).toEqual([
      "PmtInfId",
      "PmtMtd",
      "BtchBookg",
      "NbOfTxs",
      "CtrlSum",
      "PmtTpInf",
      "ReqdExctnDt",
      "Dbtr",
      "DbtrAcct",
      "DbtrAgt",
      "ChrgBr",
      "CdtTrfTxInf",
      "CdtTrfTxInf",
    ]);
    expect(textAt(payment, "PmtMtd")).toBe("TRF");
    expect(textAt(payment, "PmtTpInf", "SvcLvl", "Cd")).toBe("SEPA");
    expect(textAt(payment, "ReqdExctnDt")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(textAt(payment, "Dbtr", "Nm")).toBe("Salelink SAS");
    expect(textAt(payment, "DbtrAcct", "Id", "IBAN")).toBe(PLATFORM_IBAN);
    expect(textAt(payment, "DbtrAgt", "FinInstnId", "BIC")).toBe("ABNANL2A");
    expect(textAt(payment, "ChrgBr")).toBe("SLEV");

    const transfers = children(payment, "CdtTrfTxInf");
    const byId = new Map(transfers.map((t) => [textAt(t, "PmtId", "EndToEndId"), t]));
    const first = byId.get(a.id.replace(/-/g, ""));
    expect(first?.children.map((c) => c.name)).toEqual([
      "PmtId",
      "Amt",
      "CdtrAgt",
      "Cdtr",
      "CdtrAcct",
      "RmtInf",
    ]);
    expect(child(child(first, "Amt"), "InstdAmt")?.attributes.Ccy).toBe("EUR");
    expect(textAt(first, "Amt", "InstdAmt")).toBe("12.34");
    expect(textAt(first, "CdtrAgt", "FinInstnId", "BIC")).toBe("COBADEFFXXX");
    // Escaped in the file, the holder's name as typed once read.
    expect(res.body).toContain("<Nm>Ada &amp; &lt;Lovelace&gt;</Nm>");
    expect(textAt(first, "Cdtr", "Nm")).toBe("Ada & <Lovelace>");
    expect(textAt(first, "CdtrAcct", "Id", "IBAN")).toBe("DE89370400440532013000");
    expect(textAt(first, "RmtInf", "Ustrd")).toBe(`Salelink SAS payout ${a.id}`);
    const second = byId.get(b.id.replace(/-/g, ""));
    // No BIC known: no creditor agent (SEPA routes by IBAN).
    expect(second?.children.map((c) => c.name)).toEqual(["PmtId", "Amt", "Cdtr", "CdtrAcct", "RmtInf"]);
    expect(textAt(second, "Amt", "InstdAmt")).toBe("1000.01");
    expect(res.body).not.toContain("55667788");

    // Full IBANs leave only through these files: the payout queue shows them masked.
    const queue = await call("GET", "/admin/payouts", admin.cookie);
    expect(queue.body).not.toContain("DE89370400440532013000");

    // Each download is in the audit log, with ids only.
    const entries = await ctx.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "payouts.export"), eq(adminAuditLog.actorId, admin.id)));
    expect(entries.map((e) => e.details.format).sort()).toEqual(["csv", "pain001"]);
    const sepaEntry = entries.find((e) => e.details.format === "pain001");
    expect(sepaEntry?.details).toMatchObject({ status: "processing", skipped: 1 });
    expect([...((sepaEntry?.details.payoutIds as string[]) ?? [])].sort()).toEqual([a.id, b.id].sort());
    expect(JSON.stringify(entries.map((e) => e.details))).not.toMatch(/@|DE89/);

    // Another status on request; an unknown format or status is refused.
    const requestedCsv = await call("GET", "/admin/payouts/export?format=csv&status=requested", admin.cookie);
    expect(requestedCsv.body).toContain(requested.id);
    expect((await call("GET", "/admin/payouts/export?format=pdf", admin.cookie)).statusCode).toBe(400);
    // Paying them keeps them out of the next processing export.
    await ctx.database.db
      .update(payouts)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(payouts.id, a.id));
    const after = await call("GET", "/admin/payouts/export?format=pain001", admin.cookie);
    expect(after.body).not.toContain(a.id.replace(/-/g, ""));
  });

  it("answers 409 for pain.001 without the platform's IBAN; the CSV still works", async () => {
    const bare = await testApp();
    try {
      const { cookie } = await accountWithSession(bare.database, { onboarded: true, role: "admin" });
      const sepa = await bare.app.inject({
        url: "/admin/payouts/export?format=pain001",
        headers: { cookie },
      });
      expect(sepa.statusCode).toBe(409);
      expect(errorOf(sepa).message).toContain("PLATFORM_IBAN");
      const csv = await bare.app.inject({ url: "/admin/payouts/export", headers: { cookie } });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toBe(
        "id,holder,iban,bic,amount,currency,reference,requested_at,kind,country,sort_code,routing_number,account_number,account_type\r\n",
      );
      // The refused export wrote nothing to the audit log; the CSV one did.
      const entries = await bare.database.db.select().from(adminAuditLog);
      expect(entries.map((e) => e.details.format)).toEqual(["csv"]);
    } finally {
      await bare.close();
    }
  });
  it("keeps negative amounts numeric in every CSV while neutralising formulas", async () => {
    // The field rule itself: numbers stay numbers, anything a spreadsheet would evaluate is quoted.
    expect(["-12.50", "12.50", "-0.01", "1234", "-7"].map(csvField)).toEqual([
      "-12.50",
      "12.50",
      "-0.01",
      "1234",
      "-7",
    ]);
    expect(
      ["=cmd", "+cmd", "@cmd", "-cmd", "\tcmd", "\rcmd", "-1+2", "-12.50e3", "- 1"].map(csvField),
    ).toEqual(["'=cmd", "'+cmd", "'@cmd", "'-cmd", "'\tcmd", '"\'\rcmd"', "'-1+2", "'-12.50e3", "'- 1"]);

    // The creator's transactions CSV: a payout request is a negative movement of the available balance.
    const account = await insertAccount(ctx.database, { onboarded: true });
    await insertApprovedIdentity(ctx.database, account.id);
    const cookie = await directSessionCookie(ctx.database, account.id);
    const bank = await call("POST", "/profile/bank-accounts", cookie, {
      holderName: "-cmd|' /C calc'!A0",
      iban: "DE89370400440532013000",
    });
    expect(bank.statusCode, bank.body).toBe(201);
    await credit(account.id, 1250, "EUR");
    const payout = await call("POST", "/profile/payout", cookie, {
      bankAccountId: bank.json<BankAccount>().id,
      currency: "EUR",
      amount: 1250,
    });
    expect(payout.statusCode, payout.body).toBe(201);
    const mine = await call("GET", "/transactions.csv", cookie);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).toContain(",payout_requested,available,-12.50,EUR,");
    expect(mine.body).not.toContain("'-12.50");

    // The admin's payouts CSV: the holder's "-cmd" text is neutralised, the amount is a number.
    const payoutId = payout.json<Payout>().id;
    const csv = await call("GET", "/admin/payouts/export?format=csv&status=requested", admin.cookie);
    const line = csv.body.split("\r\n").find((l) => l.startsWith(payoutId)) ?? "";
    expect(line).toContain(`${payoutId},'-cmd|' /C calc'!A0,DE89370400440532013000,,12.50,EUR,`);
  });
});
