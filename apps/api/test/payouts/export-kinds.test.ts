import {
  type BankAccount,
  PAYOUT_EXPORT_COUNT_HEADER,
  PAYOUT_EXPORT_SKIPPED_HEADER,
} from "@salelink/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payouts } from "../../src/db/schema/index.ts";
import { payoutsCsvHeader } from "../../src/modules/admin/exports/service.ts";
import { accountWithSession, directSessionCookie, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";

/*
 * Issue 23: the bank export of payouts to the three kinds of account. SEPA pain.001 carries the euro
 * payouts to IBANs (a Swiss one with its BIC); the CSV carries every payout with its kind's fields:
 * IBAN and BIC, sort code and account number, or routing number, account number and type.
 */

let ctx: TestContext;
let admin: string;

const exportOf = (format: "csv" | "pain001") =>
  ctx.app.inject({ url: `/admin/payouts/export?format=${format}`, headers: { cookie: admin } });

/** A creator's saved account and a processing payout to it, in the account's currency. */
async function payoutTo(account: object, amountMinor: number) {
  const user = await insertAccount(ctx.database, { onboarded: true });
  const cookie = await directSessionCookie(ctx.database, user.id);
  const res = await ctx.app.inject({
    method: "POST",
    url: "/profile/bank-accounts",
    headers: { cookie },
    payload: account,
  });
  expect(res.statusCode, res.body).toBe(201);
  const bank = res.json<BankAccount>();
  const [row] = await ctx.database.db
    .insert(payouts)
    .values({
      userId: user.id,
      bankAccountId: bank.id,
      holderName: bank.holderName,
      ibanCountry: bank.country,
      ibanLast4: bank.ibanMasked.slice(-4),
      amountMinor,
      currency: bank.currency,
      status: "processing",
      provider: "manual",
      processingAt: new Date(),
    })
    .returning({ id: payouts.id });
  if (!row) throw new Error("payout not inserted");
  return row.id;
}

beforeAll(async () => {
  ctx = await testApp({ PLATFORM_NAME: "Salelink SAS", PLATFORM_IBAN: "NL91ABNA0417164300" });
  admin = (await accountWithSession(ctx.database, { onboarded: true, role: "admin" })).cookie;
});
afterAll(() => ctx.close());

describe(`the bank export of payouts to IBAN, UK and US accounts (${dbKind})`, () => {
  it("writes each kind's fields in the CSV and only the euro IBAN payouts in pain.001", async () => {
    const german = await payoutTo(
      { holderName: "Ada Lovelace", iban: "DE89370400440532013000", bic: "COBADEFFXXX" },
      1000,
    );
    const swissEuroWithBic = await payoutTo(
      { kind: "iban", holderName: "Hans Muster", iban: "CH9300762011623852957", bic: "POFICHBEXXX" },
      2000,
    );
    const swissEuroWithoutBic = await payoutTo(
      { kind: "iban", holderName: "Heidi Muster", iban: "CH9300762011623852957" },
      3000,
    );
    const swissFrancs = await payoutTo(
      { kind: "iban", holderName: "Urs Muster", iban: "CH9300762011623852957", currency: "CHF" },
      4000,
    );
    const british = await payoutTo(
      { kind: "gb", holderName: "Charles Babbage", sortCode: "20-00-00", accountNumber: "55667788" },
      5000,
    );
    const american = await payoutTo(
      {
        kind: "us",
        holderName: "Grace Hopper",
        routingNumber: "110000000",
        accountNumber: "000123456789",
        accountType: "savings",
      },
      6000,
    );

    const csv = await exportOf("csv");
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...lines] = csv.body.trimEnd().split("\r\n");
    expect(header).toBe(payoutsCsvHeader.join(","));
    const byId = new Map(
      lines.map((line) => {
        const cells = line.split(",");
        return [cells[0], Object.fromEntries(payoutsCsvHeader.map((name, i) => [name, cells[i] ?? ""]))];
      }),
    );
    expect(byId.size).toBe(6);
    const empty = { sort_code: "", routing_number: "", account_number: "", account_type: "" };
    expect(byId.get(german)).toMatchObject({
      kind: "iban",
      country: "DE",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      amount: "10.00",
      currency: "EUR",
      reference: `Salelink SAS payout ${german}`,
      ...empty,
    });
    expect(byId.get(swissFrancs)).toMatchObject({
      kind: "iban",
      country: "CH",
      iban: "CH9300762011623852957",
      bic: "",
      amount: "40.00",
      currency: "CHF",
      ...empty,
    });
    expect(byId.get(british)).toMatchObject({
      kind: "gb",
      country: "GB",
      iban: "",
      bic: "",
      sort_code: "200000",
      routing_number: "",
      account_number: "55667788",
      account_type: "",
      amount: "50.00",
      currency: "GBP",
      reference: `Salelink SAS payout ${british}`,
    });
    expect(byId.get(american)).toMatchObject({
      kind: "us",
      country: "US",
      iban: "",
      sort_code: "",
      routing_number: "110000000",
      account_number: "000123456789",
      account_type: "savings",
      amount: "60.00",
      currency: "USD",
      reference: `Salelink SAS payout ${american}`,
    });

    const sepa = await exportOf("pain001");
    expect(sepa.statusCode, sepa.body).toBe(200);
    expect(sepa.headers[PAYOUT_EXPORT_COUNT_HEADER]).toBe("2");
    expect(sepa.headers[PAYOUT_EXPORT_SKIPPED_HEADER]).toBe("4");
    const endToEnd = [...sepa.body.matchAll(/<EndToEndId>([^<]+)<\/EndToEndId>/g)].map((m) => m[1]);
    expect(endToEnd.sort()).toEqual([german, swissEuroWithBic].map((id) => id.replace(/-/g, "")).sort());
    expect(sepa.body).toContain("<BIC>POFICHBEXXX</BIC>");
    expect(sepa.body).toContain(`<Ustrd>Salelink SAS payout ${swissEuroWithBic}</Ustrd>`);
    // Francs, pounds, dollars and a Swiss IBAN without its BIC are left to the CSV.
    for (const id of [swissEuroWithoutBic, swissFrancs, british, american])
      expect(sepa.body).not.toContain(id.replace(/-/g, ""));
    expect(sepa.body).not.toContain("55667788");
    expect(sepa.body).not.toContain("000123456789");
  });
});
