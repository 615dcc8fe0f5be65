import type { BankAccount } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankAccounts } from "../../src/db/schema/index.ts";
import { ibanBox } from "../../src/modules/payouts/bank-accounts/service.ts";
import { directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";

/*
 * Issue 23: British (sort code, account number, GBP), American (routing number, account number,
 * checking or savings, USD) and Swiss accounts (IBAN, CHF or EUR) besides the 30 countries' IBANs;
 * each bad field answered on that field, in the caller's language.
 */

let ctx: TestContext;
let cookie: string;

const add = (payload: object, locale?: "fr" | "es") =>
  ctx.app.inject({
    method: "POST",
    url: "/profile/bank-accounts",
    headers: { cookie, ...(locale ? { "x-locale": locale } : {}) },
    payload,
  });

async function saved(payload: object): Promise<BankAccount> {
  const res = await add(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BankAccount>();
}

async function sealedOf(id: string) {
  const [row] = await ctx.database.db.select().from(bankAccounts).where(eq(bankAccounts.id, id));
  if (!row) throw new Error(`no bank account ${id}`);
  return row;
}

/** The 400's field errors, or the status and body when it was not a 400. */
async function fieldErrors(payload: object, locale?: "fr" | "es") {
  const res = await add(payload, locale);
  expect(res.statusCode, res.body).toBe(400);
  return errorOf(res).errors;
}

const SWISS_IBAN = "CH9300762011623852957";
const holderName = "Ada Lovelace";

beforeAll(async () => {
  ctx = await testApp();
  cookie = await directSessionCookie(
    ctx.database,
    (await insertAccount(ctx.database, { onboarded: true })).id,
  );
});
afterAll(() => ctx.close());

describe(`bank accounts of three kinds (${dbKind})`, () => {
  it("saves a UK account in GBP: the sort code in clear, the account number sealed", async () => {
    const account = await saved({ kind: "gb", holderName, sortCode: "20-00-00", accountNumber: "5566 7788" });
    expect(account).toMatchObject({
      kind: "gb",
      currency: "GBP",
      country: "GB",
      ibanMasked: "20-00-00 •••• 7788",
      bic: null,
      accountType: null,
    });
    expect(JSON.stringify(account)).not.toContain("55667788");
    const row = await sealedOf(account.id);
    expect(row.bankCode).toBe("200000");
    expect(row.ibanSealed).not.toContain("5566");
    expect(ibanBox(ctx.config).open(row.ibanSealed)).toBe("55667788");
  });

  it("saves a US account in USD with its type", async () => {
    const account = await saved({
      kind: "us",
      holderName,
      routingNumber: "110000000",
      accountNumber: "000123456789",
      accountType: "savings",
    });
    expect(account).toMatchObject({
      kind: "us",
      currency: "USD",
      country: "US",
      accountType: "savings",
      ibanMasked: "110000000 •••• 6789",
    });
    const row = await sealedOf(account.id);
    expect(row.bankCode).toBe("110000000");
    expect(ibanBox(ctx.config).open(row.ibanSealed)).toBe("000123456789");
  });

  it("saves a Swiss IBAN in francs or in euros, and an IBAN without a kind as before", async () => {
    expect(await saved({ kind: "iban", holderName, iban: SWISS_IBAN, currency: "CHF" })).toMatchObject({
      kind: "iban",
      currency: "CHF",
      country: "CH",
    });
    expect(await saved({ kind: "iban", holderName, iban: SWISS_IBAN })).toMatchObject({
      currency: "EUR",
      country: "CH",
    });
    // The body of before issue 23: no kind, no currency.
    expect(
      await saved({ holderName, iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX" }),
    ).toMatchObject({ kind: "iban", currency: "EUR", country: "DE", bic: "COBADEFFXXX", accountType: null });
  });

  it("names the UK fields that are wrong", async () => {
    expect(
      await fieldErrors({ kind: "gb", holderName, sortCode: "20-00-0", accountNumber: "55667788" }),
    ).toEqual({
      sortCode: ["A sort code has 6 digits."],
    });
    expect(
      await fieldErrors({ kind: "gb", holderName, sortCode: "200000", accountNumber: "5566778" }),
    ).toEqual({
      accountNumber: ["A UK account number has 8 digits."],
    });
    expect(
      await fieldErrors({ kind: "gb", holderName, sortCode: "ab0000", accountNumber: "556677889" }),
    ).toEqual({
      sortCode: ["A sort code has 6 digits."],
      accountNumber: ["A UK account number has 8 digits."],
    });
    // A UK account is paid in pounds: an IBAN's field is no part of it.
    expect(
      Object.keys(
        (await fieldErrors({ kind: "gb", holderName, iban: "GB29NWBK60161331926819" })) ?? {},
      ).sort(),
    ).toEqual(["accountNumber", "sortCode"]);
  });

  it("names the US fields that are wrong: digits, the routing number's check digit, the type", async () => {
    const good = {
      kind: "us",
      holderName,
      routingNumber: "110000000",
      accountNumber: "000123456789",
      accountType: "checking",
    };
    expect(await fieldErrors({ ...good, routingNumber: "110000001" })).toEqual({
      routingNumber: ["This routing number's check digit does not match: check for a typo."],
    });
    expect(await fieldErrors({ ...good, routingNumber: "11000000" })).toEqual({
      routingNumber: ["A routing number has 9 digits."],
    });
    expect(await fieldErrors({ ...good, accountNumber: "123" })).toEqual({
      accountNumber: ["A US account number has 4 to 17 digits."],
    });
    expect(await fieldErrors({ ...good, accountNumber: "123456789012345678" })).toEqual({
      accountNumber: ["A US account number has 4 to 17 digits."],
    });
    expect(Object.keys((await fieldErrors({ ...good, accountType: "brokerage" })) ?? {})).toEqual([
      "accountType",
    ]);
    const { accountType: _, ...untyped } = good;
    expect(Object.keys((await fieldErrors(untyped)) ?? {})).toEqual(["accountType"]);
  });

  it("refuses francs to a non-Swiss IBAN and an IBAN of a country payouts do not reach", async () => {
    expect(
      await fieldErrors({ kind: "iban", holderName, iban: "DE89370400440532013000", currency: "CHF" }),
    ).toEqual({
      currency: ["Only a Swiss account is paid in francs."],
    });
    // Without a kind too: the old body takes the new rules.
    expect(await fieldErrors({ holderName, iban: "DE89370400440532013000", currency: "CHF" })).toEqual({
      currency: ["Only a Swiss account is paid in francs."],
    });
    const outside = "Payouts go to IBANs in the 30 European countries we serve and Switzerland.";
    // A British IBAN: British accounts are given by sort code and account number.
    expect(await fieldErrors({ kind: "iban", holderName, iban: "GB29NWBK60161331926819" })).toEqual({
      iban: [outside],
    });
    expect(await fieldErrors({ holderName, iban: "SA0380000000608010167519" })).toEqual({ iban: [outside] });
    expect(
      Object.keys((await fieldErrors({ kind: "iban", holderName, iban: SWISS_IBAN, currency: "USD" })) ?? {}),
    ).toEqual(["currency"]);
    expect(Object.keys((await fieldErrors({ kind: "ach", holderName })) ?? {})).toEqual(["kind"]);
  });

  it("answers the contract's messages in French and Spanish", async () => {
    expect(await fieldErrors({ kind: "gb", holderName, sortCode: "1", accountNumber: "2" }, "fr")).toEqual({
      sortCode: ["Un sort code compte 6 chiffres."],
      accountNumber: ["Un numéro de compte britannique compte 8 chiffres."],
    });
    expect(
      await fieldErrors(
        { kind: "us", holderName, routingNumber: "110000001", accountNumber: "12", accountType: "checking" },
        "es",
      ),
    ).toEqual({
      routingNumber: [
        "El dígito de control de este número de ruta no coincide: comprueba que no haya un error.",
      ],
      accountNumber: ["Un número de cuenta estadounidense tiene de 4 a 17 cifras."],
    });
    expect(await fieldErrors({ holderName, iban: "DE89370400440532013000", currency: "CHF" }, "fr")).toEqual({
      currency: ["Seul un compte suisse est payé en francs."],
    });
    expect(await fieldErrors({ holderName, iban: "GB29NWBK60161331926819" }, "es")).toEqual({
      iban: ["Los pagos van a IBAN de los 30 países europeos en los que operamos y de Suiza."],
    });
  });
});
