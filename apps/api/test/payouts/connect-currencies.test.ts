import { randomUUID } from "node:crypto";
import type { BankAccount, Currency } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bankAccounts, payouts } from "../../src/db/schema/index.ts";
import { submitPayout } from "../../src/modules/payouts/events.ts";
import {
  createPayoutProvider,
  type PayoutDestination,
  type PayoutProviderStore,
  PayoutRefusedError,
  payoutsEnvSchema,
} from "../../src/providers/payouts/index.ts";
import { directSessionCookie, insertAccount } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

/*
 * Issue 23: Stripe Connect pays each currency to its own external account on the creator's one
 * connected account: EUR to an IBAN, GBP to a sort code and account number, USD to a routing number
 * and account number; a payout never goes to an account of another currency.
 */

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let ctx: TestContext;

const env = () => ({
  PAYOUT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_fake_connect_secret",
  STRIPE_API_URL: fake.url,
});

/** A store in memory, for the adapter on its own. */
function memoryStore(): PayoutProviderStore & { accounts: Map<string, string>; banks: Map<string, string> } {
  const accounts = new Map<string, string>();
  const banks = new Map<string, string>();
  const manual = new Set<string>();
  return {
    accounts,
    banks,
    connectAccountOf: async (userId) => accounts.get(userId) ?? null,
    saveConnectAccount: async (userId, id) => void accounts.set(userId, id),
    saveExternalAccount: async (bankAccountId, id) => void banks.set(bankAccountId, id),
    manualPayoutsSet: async (userId) => manual.has(userId),
    markManualPayouts: async (userId) => void manual.add(userId),
    bankAnswersLater: async () => {
      throw new Error("only the sandbox's bank answers later");
    },
  };
}

const common = { holderName: "Ada Lovelace", stripeExternalAccountId: null };
const iban = (): Extract<PayoutDestination, { kind: "iban" }> => ({
  ...common,
  bankAccountId: randomUUID(),
  kind: "iban",
  iban: "DE89370400440532013000",
  bic: null,
  country: "DE",
  currency: "EUR",
});
const gb = (): Extract<PayoutDestination, { kind: "gb" }> => ({
  ...common,
  bankAccountId: randomUUID(),
  kind: "gb",
  sortCode: "200000",
  accountNumber: "55667788",
  country: "GB",
  currency: "GBP",
});
const us = (): Extract<PayoutDestination, { kind: "us" }> => ({
  ...common,
  bankAccountId: randomUUID(),
  kind: "us",
  routingNumber: "110000000",
  accountNumber: "000123456789",
  accountType: "checking",
  country: "US",
  currency: "USD",
});

const payoutOf = (userId: string, currency: Currency, amountMinor = 2500) => ({
  payoutId: randomUUID(),
  userId,
  amountMinor,
  currency,
});

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await testApp(env());
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

describe("the Stripe Connect adapter, one external account per currency", () => {
  it("pays EUR to the IBAN and GBP to the UK account of the same connected account", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(env()));
    const store = memoryStore();
    const userId = randomUUID();
    const euro = iban();
    const pound = gb();
    const first = await provider.submit(payoutOf(userId, "EUR", 1200), euro, store);
    const second = await provider.submit(payoutOf(userId, "GBP", 3400), pound, store);

    expect(fake.accounts.size).toBe(1);
    const [account] = [...fake.accounts.keys()];
    expect(fake.externalAccounts.size).toBe(2);
    const euroBank = fake.externalAccounts.get(store.banks.get(euro.bankAccountId) ?? "");
    const poundBank = fake.externalAccounts.get(store.banks.get(pound.bankAccountId) ?? "");
    expect(euroBank).toMatchObject({
      account,
      country: "DE",
      currency: "eur",
      routing_number: null,
      last4: "3000",
    });
    expect(poundBank).toMatchObject({
      account,
      country: "GB",
      currency: "gbp",
      routing_number: "200000",
      last4: "7788",
    });
    // What was sent for the UK account: the sort code as the routing number.
    const gbCall = fake.requests.find(
      (r) => r.path.endsWith("/external_accounts") && r.params["external_account[country]"] === "GB",
    );
    expect(gbCall?.params).toMatchObject({
      "external_account[object]": "bank_account",
      "external_account[routing_number]": "200000",
      "external_account[account_number]": "55667788",
      "external_account[currency]": "gbp",
      "external_account[account_holder_name]": "Ada Lovelace",
      "external_account[account_holder_type]": "individual",
    });

    // Each payout in its currency, to its currency's external account, after a transfer in that currency.
    expect(fake.payouts.get(first.providerPayoutId ?? "")).toMatchObject({
      account,
      amount: 1200,
      currency: "eur",
      destination: euroBank?.id,
    });
    expect(fake.payouts.get(second.providerPayoutId ?? "")).toMatchObject({
      account,
      amount: 3400,
      currency: "gbp",
      destination: poundBank?.id,
    });
    expect([...fake.transfers.values()].map((t) => [t.currency, t.amount]).sort()).toEqual([
      ["eur", 1200],
      ["gbp", 3400],
    ]);
  });

  it("pays USD to a US account by routing number, account number and type", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(env()));
    const store = memoryStore();
    const dollar = us();
    const submitted = await provider.submit(payoutOf(randomUUID(), "USD", 9900), dollar, store);
    const bank = fake.externalAccounts.get(store.banks.get(dollar.bankAccountId) ?? "");
    expect(bank).toMatchObject({
      country: "US",
      currency: "usd",
      routing_number: "110000000",
      account_type: "checking",
      last4: "6789",
    });
    expect([...fake.accounts.values()][0]).toMatchObject({ country: "US" });
    expect(fake.payouts.get(submitted.providerPayoutId ?? "")).toMatchObject({
      currency: "usd",
      amount: 9900,
      destination: bank?.id,
    });
  });

  it("refuses a payout in another currency than its account's before anything moves", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(env()));
    const store = memoryStore();
    const refusal = provider.submit(payoutOf(randomUUID(), "GBP"), iban(), store);
    await expect(refusal).rejects.toBeInstanceOf(PayoutRefusedError);
    await expect(refusal).rejects.toMatchObject({
      reason: "The bank account takes EUR, not GBP: a GBP payout needs an account in GBP.",
    });
    // Nothing was created or transferred at Stripe.
    expect(fake.requests).toEqual([]);
  });

  it("refuses, as Stripe does, a payout to an external account of another currency", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(env()));
    const store = memoryStore();
    const userId = randomUUID();
    const euro = iban();
    await provider.submit(payoutOf(userId, "EUR"), euro, store);
    // A stale record: the GBP account points at the euro external account.
    const stale: PayoutDestination = {
      ...gb(),
      stripeExternalAccountId: store.banks.get(euro.bankAccountId) ?? null,
    };
    const refusal = provider.submit(payoutOf(userId, "GBP"), stale, store);
    await expect(refusal).rejects.toBeInstanceOf(PayoutRefusedError);
    await expect(refusal).rejects.toMatchObject({
      reason: expect.stringContaining(
        "The currency of the bank account (eur) does not match the currency of the payout (gbp)",
      ),
    });
  });

  it("passes on Stripe's refusal of a bad account as a refusal, with Stripe's reason", async () => {
    const provider = createPayoutProvider(payoutsEnvSchema.parse(env()));
    const badRouting: PayoutDestination = { ...us(), routingNumber: "110000001" };
    await expect(
      provider.submit(payoutOf(randomUUID(), "USD"), badRouting, memoryStore()),
    ).rejects.toMatchObject({
      reason: expect.stringContaining("routing_number_invalid"),
    });
    const badSortCode: PayoutDestination = { ...gb(), sortCode: "2000" };
    await expect(
      provider.submit(payoutOf(randomUUID(), "GBP"), badSortCode, memoryStore()),
    ).rejects.toMatchObject({
      reason: expect.stringContaining("routing_number_invalid"),
    });
    expect(fake.payouts.size).toBe(0);
  });
});

describe(`submitting saved accounts of each kind through Stripe Connect (${dbKind})`, () => {
  /** A processing payout to a saved account, as the admin's approval leaves it. */
  async function processing(userId: string, bank: BankAccount, amountMinor: number) {
    const [row] = await ctx.database.db
      .insert(payouts)
      .values({
        userId,
        bankAccountId: bank.id,
        holderName: bank.holderName,
        ibanCountry: bank.country,
        ibanLast4: bank.ibanMasked.slice(-4),
        amountMinor,
        currency: bank.currency,
        status: "processing",
        provider: "stripe",
        processingAt: new Date(),
      })
      .returning({ id: payouts.id });
    if (!row) throw new Error("payout not inserted");
    return row.id;
  }

  it("sends a creator's EUR and GBP payouts to their two accounts, and a USD one to a US account", async () => {
    const creator = await insertAccount(ctx.database, { onboarded: true });
    const cookie = await directSessionCookie(ctx.database, creator.id);
    const add = async (payload: object) => {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/profile/bank-accounts",
        headers: { cookie },
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<BankAccount>();
    };
    const euro = await add({ holderName: "Ada Lovelace", iban: "DE89370400440532013000" });
    const pound = await add({
      kind: "gb",
      holderName: "Ada Lovelace",
      sortCode: "20-00-00",
      accountNumber: "55667788",
    });
    const euroPayout = await processing(creator.id, euro, 1500);
    const poundPayout = await processing(creator.id, pound, 2600);
    const provider = ctx.app.services.payouts;
    const submit = (id: string) =>
      ctx.database.db.transaction((tx) => submitPayout(tx, ctx.config, provider, id));
    expect(await submit(euroPayout)).toBe("submitted");
    expect(await submit(poundPayout)).toBe("submitted");

    expect(fake.accounts.size).toBe(1);
    const saved = await ctx.database.db
      .select()
      .from(bankAccounts)
      .where(eq(bankAccounts.ownerId, creator.id));
    const externalOf = (id: string) =>
      fake.externalAccounts.get(saved.find((b) => b.id === id)?.stripeExternalAccountId ?? "");
    expect(externalOf(euro.id)).toMatchObject({ currency: "eur", country: "DE", last4: "3000" });
    expect(externalOf(pound.id)).toMatchObject({
      currency: "gbp",
      country: "GB",
      routing_number: "200000",
      last4: "7788",
    });
    const remote = [...fake.payouts.values()];
    expect(remote.map((p) => [p.currency, p.amount, p.destination]).sort()).toEqual(
      [
        ["eur", 1500, externalOf(euro.id)?.id],
        ["gbp", 2600, externalOf(pound.id)?.id],
      ].sort(),
    );
    // The account's number went to Stripe, opened from its sealed form for the call only.
    const gbCall = fake.requests.find((r) => r.params["external_account[country]"] === "GB");
    expect(gbCall?.params["external_account[account_number]"]).toBe("55667788");

    const american = await insertAccount(ctx.database, { onboarded: true });
    const americanCookie = await directSessionCookie(ctx.database, american.id);
    const usRes = await ctx.app.inject({
      method: "POST",
      url: "/profile/bank-accounts",
      headers: { cookie: americanCookie },
      payload: {
        kind: "us",
        holderName: "Grace Hopper",
        routingNumber: "110000000",
        accountNumber: "000123456789",
        accountType: "savings",
      },
    });
    expect(usRes.statusCode, usRes.body).toBe(201);
    const dollarPayout = await processing(american.id, usRes.json<BankAccount>(), 4200);
    expect(await submit(dollarPayout)).toBe("submitted");
    const usCall = fake.requests.find((r) => r.params["external_account[country]"] === "US");
    expect(usCall?.params).toMatchObject({
      "external_account[routing_number]": "110000000",
      "external_account[account_number]": "000123456789",
      "external_account[account_type]": "savings",
      "external_account[currency]": "usd",
      "external_account[account_holder_name]": "Grace Hopper",
    });
    const [row] = await ctx.database.db.select().from(payouts).where(eq(payouts.id, dollarPayout));
    expect(fake.payouts.get(row?.providerPayoutId ?? "")).toMatchObject({ currency: "usd", amount: 4200 });
  });
});
