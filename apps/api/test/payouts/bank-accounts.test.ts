import type { BankAccount } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankAccounts } from "../../src/db/schema/index.ts";
import { ibanBox } from "../../src/modules/payouts/bank-accounts/service.ts";
import { directSessionCookie, errorOf, insertAccount } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";

let ctx: TestContext;
let alice: string;
let bob: string;

const call = (method: "GET" | "POST" | "DELETE", url: string, cookie?: string, payload?: object) =>
  ctx.app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  ctx = await testApp();
  alice = await directSessionCookie(
    ctx.database,
    (await insertAccount(ctx.database, { onboarded: true })).id,
  );
  bob = await directSessionCookie(ctx.database, (await insertAccount(ctx.database, { onboarded: true })).id);
});
afterAll(() => ctx.close());

describe("bank accounts", () => {
  it("saves an IBAN sealed at rest and shows it masked; another account neither sees nor deletes it", async () => {
    const res = await call("POST", "/profile/bank-accounts", alice, {
      holderName: "Ada Lovelace",
      iban: "de89 3704 0044 0532 0130 00",
      bic: "cobadeffxxx",
    });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json<BankAccount>();
    expect(account).toMatchObject({
      holderName: "Ada Lovelace",
      ibanMasked: "DE•• •••• 3000",
      country: "DE",
      bic: "COBADEFFXXX",
    });
    expect(res.body).not.toContain("370400440532");

    const [row] = await ctx.database.db.select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
    expect(row?.ibanSealed).not.toContain("DE89");
    expect(ibanBox(ctx.config).open(row?.ibanSealed ?? "")).toBe("DE89370400440532013000");

    expect(
      (await call("GET", "/profile/bank-accounts", alice)).json<{ items: BankAccount[] }>().items,
    ).toHaveLength(1);
    expect((await call("GET", "/profile/bank-accounts", bob)).json<{ items: BankAccount[] }>().items).toEqual(
      [],
    );
    expect((await call("DELETE", `/profile/bank-accounts/${account.id}`, bob)).statusCode).toBe(404);
    expect((await call("DELETE", `/profile/bank-accounts/${account.id}`, alice)).statusCode).toBe(200);
    expect(
      (await call("GET", "/profile/bank-accounts", alice)).json<{ items: BankAccount[] }>().items,
    ).toEqual([]);
  });

  it("refuses a bad IBAN with a field error, in the caller's language, and needs a session", async () => {
    const res = await call("POST", "/profile/bank-accounts", alice, {
      holderName: "Ada",
      iban: "DE89370400440532013001",
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toEqual({
      iban: ["This IBAN's check digits do not match: check for a typo."],
    });
    const french = await ctx.app.inject({
      method: "POST",
      url: "/profile/bank-accounts",
      headers: { cookie: alice, "x-locale": "fr" },
      payload: { holderName: "Ada", iban: "GB29NWBK60161331926819" },
    });
    expect(errorOf(french).errors?.iban?.[0]).toBe(
      "Les virements vont vers des IBAN des 30 pays européens que nous servons et de Suisse.",
    );
    expect((await call("GET", "/profile/bank-accounts")).statusCode).toBe(401);
  });
});
