import { randomUUID } from "node:crypto";
import type { Currency } from "@salelink/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StripeConnectPayoutProvider, stripeKeys } from "../../src/providers/payouts/stripe-connect.ts";
import {
  type PayoutDestination,
  type PayoutProviderStore,
  PayoutRefusedError,
} from "../../src/providers/payouts/types.ts";
import { SECRET_KEY, startFakeStripe } from "../support/fake-stripe.ts";

/*
 * Issue 32: connected accounts pay out only when asked (a manual schedule), and a payout that fails
 * after its transfer takes the transfer back, so the money is never both in the creator's balance
 * and on the connected account. The adapter on its own, against the fake Stripe.
 */

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let provider: StripeConnectPayoutProvider;

beforeAll(async () => {
  fake = await startFakeStripe();
  provider = new StripeConnectPayoutProvider({
    secretKey: SECRET_KEY,
    webhookSecret: "whsec_fake_connect_secret",
    apiUrl: fake.url,
  });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

/** A store in memory that counts what it was told. */
function memoryStore(options: { accountId?: string; userId?: string; manual?: boolean } = {}) {
  const accounts = new Map<string, string>();
  const manual = new Set<string>();
  if (options.userId && options.accountId) accounts.set(options.userId, options.accountId);
  if (options.userId && options.manual) manual.add(options.userId);
  const marked: string[] = [];
  const store: PayoutProviderStore = {
    connectAccountOf: async (userId) => accounts.get(userId) ?? null,
    saveConnectAccount: async (userId, id) => void accounts.set(userId, id),
    saveExternalAccount: async () => undefined,
    manualPayoutsSet: async (userId) => manual.has(userId),
    markManualPayouts: async (userId) => {
      marked.push(userId);
      manual.add(userId);
    },
    bankAnswersLater: async () => {
      throw new Error("only the sandbox's bank answers later");
    },
  };
  return { store, accounts, manual, marked };
}

const iban = (): PayoutDestination => ({
  kind: "iban",
  bankAccountId: randomUUID(),
  holderName: "Ada Lovelace",
  iban: "DE89370400440532013000",
  bic: null,
  country: "DE",
  currency: "EUR",
  stripeExternalAccountId: null,
});

const payoutOf = (userId: string, amountMinor = 2500, currency: Currency = "EUR") => ({
  payoutId: randomUUID(),
  userId,
  amountMinor,
  currency,
});

/** An account made before schedules were set: Stripe's default, daily. */
async function legacyAccount(): Promise<string> {
  const res = await fetch(`${fake.url}/v1/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${SECRET_KEY}` },
    body: new URLSearchParams({ type: "custom", country: "DE" }),
  });
  return ((await res.json()) as { id: string }).id;
}

const scheduleOf = (accountId: string) =>
  (fake.accounts.get(accountId)?.settings as { payouts: { schedule: { interval: string } } } | undefined)
    ?.payouts.schedule.interval;

/** The connected account's balance as Stripe's API answers it (available, per currency). */
async function balance(accountId: string) {
  const res = await fetch(`${fake.url}/v1/balance`, {
    headers: { authorization: `Bearer ${SECRET_KEY}`, "stripe-account": accountId },
  });
  return ((await res.json()) as { available: { amount: number; currency: string }[] }).available;
}

const calls = (method: string, path: RegExp) =>
  fake.requests.filter((r) => r.method === method && path.test(r.path));

describe("connected accounts pay out only when asked", () => {
  it("creates a new account with a manual payout schedule, and notes it", async () => {
    const userId = randomUUID();
    const { store, accounts, marked } = memoryStore();
    await provider.submit(payoutOf(userId), iban(), store);
    const accountId = accounts.get(userId) ?? "";
    expect(scheduleOf(accountId)).toBe("manual");
    expect(calls("POST", /^\/v1\/accounts$/)[0]?.params).toMatchObject({
      "settings[payouts][schedule][interval]": "manual",
    });
    expect(marked).toEqual([userId]);
    expect(calls("POST", /^\/v1\/accounts\/[^/]+$/)).toEqual([]);
  });

  it("sets an existing account to manual once, then trusts the store", async () => {
    const accountId = await legacyAccount();
    expect(scheduleOf(accountId)).toBe("daily");
    const userId = randomUUID();
    const { store, marked } = memoryStore({ userId, accountId });
    const destination = iban();
    await provider.submit(payoutOf(userId, 1000), destination, store);
    await provider.submit(payoutOf(userId, 2000), destination, store);

    expect(scheduleOf(accountId)).toBe("manual");
    const updates = calls("POST", /^\/v1\/accounts\/[^/]+$/);
    expect(updates).toEqual([
      expect.objectContaining({
        path: `/v1/accounts/${accountId}`,
        idempotencyKey: stripeKeys.manualPayouts(userId),
        params: { "settings[payouts][schedule][interval]": "manual" },
      }),
    ]);
    expect(marked).toEqual([userId]);
    expect(fake.payouts.size).toBe(2);
  });

  it("leaves an account the store says is manual alone", async () => {
    const accountId = await legacyAccount();
    const userId = randomUUID();
    const { store, marked } = memoryStore({ userId, accountId, manual: true });
    await provider.submit(payoutOf(userId), iban(), store);
    expect(calls("POST", /^\/v1\/accounts\/[^/]+$/)).toEqual([]);
    expect(marked).toEqual([]);
    expect(scheduleOf(accountId)).toBe("daily");
  });
});

describe("taking a transfer back", () => {
  it("reverses the transfer when the payout is refused after it, then passes the refusal on", async () => {
    const userId = randomUUID();
    const { store, accounts } = memoryStore();
    const payout = payoutOf(userId, 4200);
    fake.failures.push({
      route: "POST /v1/payouts",
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "bank_account_unusable",
        message: "The bank refused it.",
      },
    });
    const refusal = await provider.submit(payout, iban(), store).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(PayoutRefusedError);
    expect((refusal as PayoutRefusedError).reason).toContain("bank_account_unusable");

    const accountId = accounts.get(userId) ?? "";
    const [transfer] = [...fake.transfers.values()];
    expect(transfer).toMatchObject({ amount: 4200, amount_reversed: 4200, reversed: true });
    expect(calls("POST", /\/reversals$/)).toEqual([
      expect.objectContaining({
        path: `/v1/transfers/${String(transfer?.id)}/reversals`,
        idempotencyKey: stripeKeys.transferReversal(payout.payoutId),
      }),
    ]);
    expect(fake.payouts.size).toBe(0);
    expect(await balance(accountId)).toEqual([{ amount: 0, currency: "eur" }]);
    expect(await provider.connectedBalances(accountId)).toEqual([{ currency: "EUR", amountMinor: 0 }]);

    // Submitted again (the job's record of the refusal lost): the transfer's creation replays as it
    // was first made, unreversed; the refusal is passed on again without a second reversal.
    const destination = iban();
    const again = await provider.submit(payout, destination, store).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(PayoutRefusedError);
    expect(fake.transfers.size).toBe(1);
    expect(fake.reversals.size).toBe(1);
  });

  it("retries, rather than fails, a refused payout whose transfer could not be taken back", async () => {
    const userId = randomUUID();
    const { store, accounts } = memoryStore();
    const payout = payoutOf(userId, 1500);
    fake.failures.push(
      {
        route: "POST /v1/payouts",
        status: 400,
        error: { type: "invalid_request_error", message: "Refused." },
      },
      {
        route: /^POST \/v1\/transfers\/[^/]+\/reversals$/,
        status: 400,
        error: { type: "invalid_request_error", message: "Not now." },
      },
    );
    const error = await provider.submit(payout, iban(), store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PayoutRefusedError);
    expect((error as Error).message).toMatch(/could not be taken back yet.*Not now/);
    const accountId = accounts.get(userId) ?? "";
    expect(await provider.connectedBalances(accountId)).toEqual([{ currency: "EUR", amountMinor: 1500 }]);

    // The payout job's failure path takes it back later.
    await provider.reverseTransfer(payout, store);
    expect(await provider.connectedBalances(accountId)).toEqual([{ currency: "EUR", amountMinor: 0 }]);
  });

  it("takes a failed payout's transfer back once, however often asked", async () => {
    const userId = randomUUID();
    const { store, accounts } = memoryStore();
    const payout = payoutOf(userId, 3300);
    const { providerPayoutId } = await provider.submit(payout, iban(), store);
    const accountId = accounts.get(userId) ?? "";
    expect(await balance(accountId)).toEqual([{ amount: 0, currency: "eur" }]);

    // While the payout is on its way the money has left the account: not asked of Stripe yet (it
    // would keep its refusal under the key), and retried rather than failed.
    const early = await provider.reverseTransfer(payout, store).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(Error);
    expect(early).not.toBeInstanceOf(PayoutRefusedError);
    expect((early as Error).message).toMatch(/not back on the connected account yet \(0 available\)/);
    expect(calls("POST", /\/reversals$/)).toEqual([]);

    fake.failPayout(providerPayoutId ?? "", { code: "no_account", message: "No such account at the bank." });
    const failed = fake.events.find((e) => e.type === "payout.failed");
    expect(failed).toMatchObject({
      account: accountId,
      data: { object: { id: providerPayoutId, status: "failed", failure_code: "no_account" } },
    });
    expect(await balance(accountId)).toEqual([{ amount: 3300, currency: "eur" }]);

    await provider.reverseTransfer(payout, store);
    await provider.reverseTransfer(payout, store);
    expect(await balance(accountId)).toEqual([{ amount: 0, currency: "eur" }]);
    expect(calls("POST", /\/reversals$/)).toHaveLength(1);
    expect([...fake.reversals.values()]).toEqual([
      expect.objectContaining({
        object: "transfer_reversal",
        amount: 3300,
        metadata: { payoutId: payout.payoutId },
      }),
    ]);
    expect(calls("GET", /^\/v1\/transfers$/).map((r) => r.params)).toEqual([
      { transfer_group: `payout-${payout.payoutId}` },
      { transfer_group: `payout-${payout.payoutId}` },
      { transfer_group: `payout-${payout.payoutId}` },
    ]);
  });

  it("does nothing for a payout that was never transferred", async () => {
    await provider.reverseTransfer(payoutOf(randomUUID()), memoryStore().store);
    expect(calls("POST", /\/reversals$/)).toEqual([]);
  });
});

describe("a connected account's balances", () => {
  it("reports a transfer not yet paid out, per currency we know", async () => {
    const userId = randomUUID();
    const { store, accounts } = memoryStore();
    const outage = { route: "POST /v1/payouts", status: 503, error: { type: "api_error", message: "Down" } };
    // Stripe down for the payout (the SDK's retry included): the transfer stays on the account.
    fake.failures.push(outage, outage);
    const payout = payoutOf(userId, 2600);
    const destination = iban();
    await expect(provider.submit(payout, destination, store)).rejects.not.toBeInstanceOf(PayoutRefusedError);
    const accountId = accounts.get(userId) ?? "";
    const other = await fetch(`${fake.url}/v1/transfers`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}` },
      body: new URLSearchParams({ amount: "700", currency: "sek", destination: accountId }),
    });
    expect(other.status).toBe(200);
    expect(await provider.connectedBalances(accountId)).toEqual([{ currency: "EUR", amountMinor: 2600 }]);

    // The job's retry pays it out (the transfer replayed, not made twice), and the bank pays it.
    const paid = await provider.submit(payout, destination, store);
    expect(fake.transfers.size).toBe(2);
    fake.payPayout(paid.providerPayoutId ?? "");
    expect(fake.events.find((e) => e.type === "payout.paid")).toMatchObject({ account: accountId });
    expect(await provider.connectedBalances(accountId)).toEqual([{ currency: "EUR", amountMinor: 0 }]);
  });
});
