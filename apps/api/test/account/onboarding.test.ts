import { europeanCountries, payoutCountries } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onboardingProfiles } from "../../src/db/schema/index.ts";
import {
  accountsApp,
  directSessionCookie,
  errorOf,
  getProfile,
  insertAccount,
  type ProfileBody,
  signInCookie,
  signUpVerified,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

const submit = (cookie: string | undefined, payload: Record<string, unknown>) =>
  ctx.app.inject({
    method: "POST",
    url: "/profile/onboarding",
    headers: cookie ? { cookie } : {},
    payload,
  });
const read = (cookie: string) =>
  ctx.app.inject({ method: "GET", url: "/profile/onboarding", headers: { cookie } });

/** The date of birth of someone who turns `years` old `dayOffset` days from today (UTC). */
function birthDate(years: number, dayOffset = 0): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + dayOffset));
  return d.toISOString().slice(0, 10);
}

const address = {
  line1: "12 rue de la Paix",
  line2: "Bâtiment B",
  city: "Paris",
  postalCode: "75002",
  country: "FR",
};
const individual = {
  kind: "individual",
  firstName: "Camille",
  lastName: "Durand",
  dateOfBirth: "1990-05-17",
  address,
};
const professional = {
  kind: "professional",
  companyName: "Durand SARL",
  registrationNumber: "RCS 123 456 789",
  vatNumber: "FR12345678901",
  address: { line1: "Hauptstraße 5", city: "Berlin", postalCode: "10115", country: "DE" },
};

async function freshAccount(): Promise<{ id: string; cookie: string }> {
  const account = await insertAccount(ctx.database, { onboarded: false });
  return { id: account.id, cookie: await signInCookie(ctx, account.email) };
}

describe("POST /profile/onboarding", () => {
  it("needs a session (401)", async () => {
    const res = await submit(undefined, individual);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).error).toBe("UnauthorizedException");
    expect((await ctx.app.inject({ method: "GET", url: "/profile/onboarding" })).statusCode).toBe(401);
  });

  it("needs a verified e-mail", async () => {
    const account = await insertAccount(ctx.database, { verified: false });
    const cookie = await directSessionCookie(ctx.database, account.id);
    const res = await submit(cookie, individual);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).error).toBe("UnverifiedAccountException");
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().onboardingCompleted).toBe(false);
  });

  it("completes the individual variant for an account made through the API", async () => {
    const account = await signUpVerified(ctx);
    const cookie = await signInCookie(ctx, account.email);
    const before = await getProfile(ctx, cookie);
    expect(before.json<ProfileBody>()).toMatchObject({ emailVerified: true, onboardingCompleted: false });
    expect((await read(cookie)).json()).toEqual({ onboarding: null });

    const res = await submit(cookie, individual);
    expect(res.statusCode, res.body).toBe(200);
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().onboardingCompleted).toBe(true);
    expect((await read(cookie)).json()).toEqual({ onboarding: individual });
  });

  it("completes the professional variant", async () => {
    const { cookie } = await freshAccount();
    const res = await submit(cookie, professional);
    expect(res.statusCode, res.body).toBe(200);
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().onboardingCompleted).toBe(true);
    expect((await read(cookie)).json()).toEqual({ onboarding: professional });
  });

  it("switching variant replaces the earlier answers", async () => {
    const { id, cookie } = await freshAccount();
    expect((await submit(cookie, individual)).statusCode).toBe(200);
    expect((await submit(cookie, professional)).statusCode).toBe(200);
    expect((await read(cookie)).json()).toEqual({ onboarding: professional });
    const [row] = await ctx.database.db
      .select()
      .from(onboardingProfiles)
      .where(eq(onboardingProfiles.userId, id));
    expect(row).toMatchObject({ firstName: null, lastName: null, dateOfBirth: null });
  });

  it("accepts every one of the 30 European countries, Switzerland, the UK and the US", async () => {
    expect(europeanCountries).toHaveLength(30);
    expect(payoutCountries).toEqual([...europeanCountries, "CH", "GB", "US"]);
    const { cookie } = await freshAccount();
    for (const country of payoutCountries) {
      const res = await submit(cookie, { ...individual, address: { ...address, country } });
      expect(res.statusCode, country).toBe(200);
    }
    // A professional in the countries added by issue 23, with their VAT (or tax) number.
    for (const [country, vatNumber] of [
      ["CH", "CHE123456789"],
      ["GB", "GB123456789"],
    ] as const) {
      const res = await submit(cookie, { ...professional, vatNumber, address: { ...address, country } });
      expect(res.statusCode, country).toBe(200);
    }
    // An American company has no VAT number: none is asked outside the EU.
    const { vatNumber: _, ...withoutVat } = professional;
    const american = { ...withoutVat, address: { ...address, country: "US" } };
    expect((await submit(cookie, american)).statusCode).toBe(200);
    expect((await read(cookie)).json()).toEqual({ onboarding: american });
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ["a company in the EU without its VAT number", { ...professional, vatNumber: undefined }, "vatNumber"],
    [
      "a country payouts cannot reach",
      { ...individual, address: { ...address, country: "CA" } },
      "address.country",
    ],
    [
      "a professional where payouts cannot go",
      { ...professional, address: { ...address, country: "JP" } },
      "address.country",
    ],
    ["a 17-year-old", { ...individual, dateOfBirth: birthDate(17) }, "dateOfBirth"],
    ["someone turning 18 tomorrow", { ...individual, dateOfBirth: birthDate(18, 1) }, "dateOfBirth"],
    ["a date of birth in the future", { ...individual, dateOfBirth: "2999-01-01" }, "dateOfBirth"],
    ["a malformed date of birth", { ...individual, dateOfBirth: "17/05/1990" }, "dateOfBirth"],
    ["a missing last name", { ...individual, lastName: undefined }, "lastName"],
    ["a blank first name", { ...individual, firstName: "   " }, "firstName"],
    ["a missing city", { ...individual, address: { ...address, city: undefined } }, "address.city"],
    ["a missing company name", { ...professional, companyName: undefined }, "companyName"],
    [
      "a missing registration number",
      { ...professional, registrationNumber: undefined },
      "registrationNumber",
    ],
    ["a malformed VAT number", { ...professional, vatNumber: "12345" }, "vatNumber"],
  ];
  it.each(refusals)("refuses %s with 400 and an error on that field", async (_, payload, field) => {
    const { cookie } = await freshAccount();
    const res = await submit(cookie, payload);
    expect(res.statusCode).toBe(400);
    const body = errorOf(res);
    expect(body.error).toBe("ValidationException");
    expect(body.errors).toHaveProperty([field]);
    expect((await getProfile(ctx, cookie)).json<ProfileBody>().onboardingCompleted).toBe(false);
    expect((await read(cookie)).json()).toEqual({ onboarding: null });
  });

  it("refuses a body without a variant", async () => {
    const { cookie } = await freshAccount();
    const { kind: _kind, ...rest } = individual;
    const res = await submit(cookie, rest);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).errors).toBeDefined();
  });

  it("accepts someone who turns 18 today", async () => {
    const { cookie } = await freshAccount();
    const res = await submit(cookie, { ...individual, dateOfBirth: birthDate(18) });
    expect(res.statusCode, res.body).toBe(200);
  });
});
