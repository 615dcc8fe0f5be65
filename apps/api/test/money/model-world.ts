import { randomBytes } from "node:crypto";
import {
  type BankAccount,
  bankAccountSchema,
  type Currency,
  campaignSchema,
  creatorProfileSchema,
  linkSchema,
  membershipResultSchema,
  walletSchema,
} from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import {
  adminAuditLog,
  ledgerEntries,
  ledgerTransactions,
  paymentEvents,
  sandboxPayments,
  users,
} from "../../src/db/schema/index.ts";
import { hashPassword } from "../../src/lib/passwords.ts";
import { createSession } from "../../src/modules/auth/sessions.ts";
import { auditLedger } from "../../src/modules/wallet/ledger.ts";
import { insertApprovedIdentity } from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";
import { deliverSandboxEvent } from "../support/checkout.ts";
import { type Balances, type ModelProgramme, type MoneyModel, zeroBalances } from "./model.ts";
import { checkDebtsAndFees, disputeRefs } from "./model-debt-invariants.ts";

/*
 * The real side of the money model: a run's accounts (fixtures written straight to the database where
 * the flow itself is not under test), the API calls the commands make, and the invariants checked
 * after every step against the ledger, the API's wallet and the model.
 */

export interface RunUser {
  id: string;
  cookie: string;
  profileId: string;
  /** The euro IBAN. */
  bankId: string;
  /** Each user's own IBAN: a referred user sharing its referrer's is a self-referral. */
  iban: string;
  /** The account paid in each currency (issue 23): the IBAN for euros, a UK and a US account. */
  banks: Record<"EUR" | "GBP" | "USD", string>;
}

export interface World {
  ctx: TestContext;
  admin: string;
  users: RunUser[];
  /** Every provider event delivered in the run, as sent, by id: what a redelivery sends again. */
  events: Map<string, unknown>;
  /** A run's own invariants, checked after every step after the others (the Connect run's). */
  checks?: (model: MoneyModel) => Promise<void>;
  /**
   * Job kinds that wait until one of the run's commands lets them run (money/model-jobs.ts): the
   * Connect run's payout submissions, so that a refund can come between an approval and its job.
   */
  heldJobs?: readonly string[];
}

type Method = "GET" | "POST" | "PUT";
export function call(ctx: TestContext, method: Method, url: string, cookie?: string, payload?: object) {
  return ctx.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

export function expectStatus(res: LightMyRequestResponse, status: number, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
}

/** A webhook delivery of `event` as the sandbox signs it, now. */
export const deliver = (ctx: TestContext, event: unknown) => deliverSandboxEvent(ctx, event);

export const resultOf = (res: LightMyRequestResponse): string => {
  expectStatus(res, 200, "webhook");
  return String(res.json<{ result: unknown }>().result);
};

let passwordHash: Promise<string> | null = null;

/** An onboarded account with an approved identity, a creator profile and a bank account. */
/** A valid German IBAN of its own for each run user (ISO 13616 check digits). */
export function testIban(): string {
  const bban = `37040044${String(randomBytes(5).readUIntBE(0, 5) % 10_000_000_000).padStart(10, "0")}`;
  const digits = `${bban}131400`;
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `DE${String(98 - rest).padStart(2, "0")}${bban}`;
}

async function runUser(ctx: TestContext, referredByCampaignId: string | null): Promise<RunUser> {
  passwordHash ??= hashPassword("money-model-password");
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      email: `money-${randomBytes(6).toString("hex")}@example.test`,
      passwordHash: await passwordHash,
      emailVerifiedAt: new Date(),
      onboardingCompletedAt: new Date(),
      referredByCampaignId,
    })
    .returning({ id: users.id });
  if (!row) throw new Error("user not created");
  await insertApprovedIdentity(ctx.database, row.id);
  const cookie = `sid=${await createSession(ctx.database.db, row.id, 30)}`;
  const handle = `m_${randomBytes(5).toString("hex")}`;
  const profile = await call(ctx, "POST", "/profiles", cookie, { displayName: "Ada", handle });
  expectStatus(profile, 201, "profile");
  const iban = testIban();
  const bank = await call(ctx, "POST", "/profile/bank-accounts", cookie, {
    holderName: "Ada Lovelace",
    iban,
  });
  expectStatus(bank, 201, "bank account");
  const bankAccount: BankAccount = bankAccountSchema.parse(bank.json());
  const number = () => String(randomBytes(4).readUInt32BE(0) % 100_000_000).padStart(8, "0");
  const gb = await call(ctx, "POST", "/profile/bank-accounts", cookie, {
    kind: "gb",
    holderName: "Ada Lovelace",
    sortCode: "200000",
    accountNumber: number(),
  });
  expectStatus(gb, 201, "UK bank account");
  const us = await call(ctx, "POST", "/profile/bank-accounts", cookie, {
    kind: "us",
    holderName: "Ada Lovelace",
    routingNumber: "110000000",
    accountNumber: `1${number()}`,
    accountType: "checking",
  });
  expectStatus(us, 201, "US bank account");
  return {
    id: row.id,
    cookie,
    profileId: creatorProfileSchema.parse(profile.json()).id,
    bankId: bankAccount.id,
    iban,
    banks: {
      EUR: bankAccount.id,
      GBP: bankAccountSchema.parse(gb.json()).id,
      USD: bankAccountSchema.parse(us.json()).id,
    },
  };
}

/** `seller` opens a partner programme at `rateBps` that `partner` joins; the partner's code. */
async function partnerProgramme(
  ctx: TestContext,
  seller: RunUser,
  partner: RunUser,
  rateBps: number,
): Promise<string> {
  const saved = await call(ctx, "PUT", "/partner-programme", seller.cookie, {
    enabled: true,
    defaultRateBps: rateBps,
    windowDays: 30,
    joinMode: "open",
  });
  expectStatus(saved, 200, "partner programme");
  const joined = await call(ctx, "POST", `/programmes/${seller.id}/join`, partner.cookie);
  expectStatus(joined, 201, "join");
  return membershipResultSchema.parse(joined.json()).code;
}

/**
 * A run's accounts: user 0 is an affiliate (who also sells), users 1 and 2 signed up through its
 * campaign, user 3 came on their own. Users 0 and 1 run partner programmes (decision 035): user 3 is
 * user 0's partner at 33 %, user 0 is user 1's at 15 % (user 1 sharing user 0's IBAN later blocks it).
 * Answers each user's referrer index and programme, for the model.
 */
export async function newWorld(
  ctx: TestContext,
  admin: string,
): Promise<{ world: World; referrers: (number | null)[]; programmes: (ModelProgramme | null)[] }> {
  const affiliate = await runUser(ctx, null);
  // A campaign is made by a write (sign-up or this), never by reading the list.
  const created = await call(ctx, "POST", "/campaigns", affiliate.cookie, { name: "My link" });
  expectStatus(created, 201, "campaign");
  const campaign = campaignSchema.parse(created.json());
  const others = await Promise.all([
    runUser(ctx, campaign.id),
    runUser(ctx, campaign.id),
    runUser(ctx, null),
  ]);
  const [first, , third] = others;
  if (!first || !third) throw new Error("no run users");
  const programmes: (ModelProgramme | null)[] = [
    { partner: 3, rateBps: 3300, code: await partnerProgramme(ctx, affiliate, third, 3300) },
    { partner: 0, rateBps: 1500, code: await partnerProgramme(ctx, first, affiliate, 1500) },
    null,
    null,
  ];
  return {
    world: { ctx, admin, users: [affiliate, ...others], events: new Map() },
    referrers: [null, 0, 0, null],
    programmes,
  };
}

export function userOf(world: World, index: number): RunUser {
  const user = world.users[index];
  if (!user) throw new Error(`no user ${index}`);
  return user;
}

/** A new link of one of the run's sellers; its token. */
export async function createLink(
  world: World,
  sellerIndex: number,
  fields: { title: string; priceMinor: number; currency: Currency; stockLimit?: number },
): Promise<string> {
  const seller = userOf(world, sellerIndex);
  const link = await call(world.ctx, "POST", "/links", seller.cookie, {
    profileId: seller.profileId,
    ...fields,
  });
  expectStatus(link, 201, "link");
  return linkSchema.parse(link.json()).token;
}

const accountField: Record<string, keyof Balances> = {
  pending: "pending",
  available: "available",
  in_transit: "inTransit",
  affiliate_pending: "affiliatePending",
  affiliate_claimable: "affiliateClaimable",
  partner_pending: "partnerPending",
  partner_claimable: "partnerClaimable",
  debt: "debt",
};

export const nonZero = (m: Map<Currency, Balances>) =>
  new Map([...m].filter(([, b]) => Object.values(b).some((v) => v !== 0)));

/** Counts by key from rows of `{ key, n }`. */
const countsOf = (rows: { key: string; n: number }[]) => new Map(rows.map((r) => [r.key, Number(r.n)]));

/** Every user's balances as the API's wallet shows them (non-zero ones). */
export async function walletBalances(world: World): Promise<Map<Currency, Balances>[]> {
  const answers = await Promise.all(world.users.map((u) => call(world.ctx, "GET", "/wallet", u.cookie)));
  return answers.map((res) => {
    expectStatus(res, 200, "wallet");
    const { balances } = walletSchema.parse(res.json());
    return nonZero(new Map(balances.map(({ currency, ...b }) => [currency, b])));
  });
}

/** Steps checked so far in this process (the report's command count). */
export const progress = { steps: 0 };

/**
 * Every invariant, after every step: the ledger, the API's wallets, the model, exactly-once, and
 * issue 32's debts and platform fees (money/model-debt-invariants.ts).
 */
export async function checkInvariants(world: World, model: MoneyModel): Promise<void> {
  const { db } = world.ctx.database;
  progress.steps++;

  const ids = world.users.map((u) => u.id);
  // Read side by side: nothing moves between the reads (the commands have finished).
  const [audit, sums, wallets] = await Promise.all([
    auditLedger(db),
    db
      .select({
        owner: ledgerEntries.ownerId,
        account: ledgerEntries.account,
        currency: ledgerEntries.currency,
        total: sql<string>`sum(${ledgerEntries.amountMinor})`,
      })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.ownerId, ids))
      .groupBy(ledgerEntries.ownerId, ledgerEntries.account, ledgerEntries.currency),
    Promise.all(world.users.map((u) => call(world.ctx, "GET", "/wallet", u.cookie))),
    checkExactlyOnce(world, model),
  ]);
  await checkDebtsAndFees(world, model, sums);
  // The ledger's own audit: balanced transactions, running balances equal to entries, none negative.
  expect(audit).toEqual({ unbalancedTransactions: [], balancesNotMatchingEntries: [], negativeBalances: [] });

  // Each user's wallet, as the API shows it, equals the ledger's sums and the model's balances.
  for (const [index, user] of world.users.entries()) {
    const fromLedger = new Map<Currency, Balances>();
    for (const s of sums.filter((r) => r.owner === user.id)) {
      const field = accountField[s.account];
      if (!field) throw new Error(`user money in ${s.account}`);
      const b = fromLedger.get(s.currency) ?? zeroBalances();
      b[field] = Number(s.total);
      fromLedger.set(s.currency, b);
    }
    const res = wallets[index];
    if (!res) throw new Error("no wallet");
    expectStatus(res, 200, "wallet");
    const wallet = walletSchema.parse(res.json());
    const fromApi = new Map(wallet.balances.map(({ currency, ...b }) => [currency, b]));
    expect(nonZero(fromApi), `user ${index}: wallet vs ledger`).toEqual(nonZero(fromLedger));
    expect(nonZero(fromApi), `user ${index}: wallet vs model`).toEqual(model.balancesOf(index));
    for (const b of fromApi.values())
      expect(b.available, `user ${index} available`).toBeGreaterThanOrEqual(0);
    const held = model.orders.filter((o) => o.seller === index && o.status === "paid" && !o.released);
    expect(wallet.held.map((h) => h.orderId).sort(), `user ${index}: held sales`).toEqual(
      held.map((o) => o.id).sort(),
    );
  }
  await world.checks?.(model);
}

/** Each provider event and each idempotency key took effect once: rows and postings, counted. */
async function checkExactlyOnce(world: World, model: MoneyModel): Promise<void> {
  const { db } = world.ctx.database;
  const ids = world.users.map((u) => u.id);
  const orderIds = model.orders.map((o) => o.id);
  // inArray over an empty list is refused; no order yet stands for none.
  const refs = [...orderIds, ...model.payouts.map((p) => p.id), ...disputeRefs(model), "none"];
  const orderRefs = [...orderIds, "00000000-0000-0000-0000-000000000000"];
  const claimsOfKind = (kind: "claim" | "partner_claim") =>
    db
      .select({
        key: sql<string>`${ledgerEntries.ownerId}::text`,
        n: sql<number>`count(distinct ${ledgerEntries.transactionId})::int`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerTransactions.kind, kind), inArray(ledgerEntries.ownerId, ids)))
      .groupBy(ledgerEntries.ownerId);
  const [postingRows, claimRows, partnerClaimRows, events, payments, asked] = await Promise.all([
    db
      .select({
        key: sql<string>`${ledgerTransactions.kind} || '|' || ${ledgerTransactions.reference}`,
        n: sql<number>`count(*)::int`,
      })
      .from(ledgerTransactions)
      // A partial refund's reference is `{orderId}:{refunded so far}` (decision 037).
      .where(inArray(sql`split_part(${ledgerTransactions.reference}, ':', 1)`, refs))
      .groupBy(ledgerTransactions.kind, ledgerTransactions.reference),
    claimsOfKind("claim"),
    claimsOfKind("partner_claim"),
    db
      .select({ eventId: paymentEvents.eventId, orderId: paymentEvents.orderId })
      .from(paymentEvents)
      .where(inArray(paymentEvents.orderId, orderRefs)),
    db
      .select({ orderId: sandboxPayments.orderId, key: sandboxPayments.idempotencyKey })
      .from(sandboxPayments)
      .where(inArray(sandboxPayments.orderId, orderRefs)),
    db
      .select({ targetId: adminAuditLog.targetId })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, "order.refund"), inArray(adminAuditLog.targetId, orderRefs))),
  ]);

  // Each sale, release, refund and payout step posted exactly once (or not at all), nothing else.
  const expected = model.expectedPostings();
  const postings = countsOf(postingRows);
  for (const key of postings.keys()) expect(expected.has(key), `unexpected posting ${key}`).toBe(true);
  for (const [key, n] of expected) expect(postings.get(key) ?? 0, `postings ${key}`).toBe(n);
  const claims = countsOf(claimRows);
  const partnerClaims = countsOf(partnerClaimRows);
  for (const [index, user] of world.users.entries()) {
    expect(claims.get(user.id) ?? 0, `claim postings of user ${index}`).toBe(model.claimPostings[index]);
    expect(partnerClaims.get(user.id) ?? 0, `partner claim postings of user ${index}`).toBe(
      model.partnerClaimPostings[index],
    );
  }
  // Every event delivered is recorded once, against its order, and no other event is.
  const recorded = events.map((e) => `${e.orderId}|${e.eventId}`).sort();
  const delivered = model.orders.flatMap((o) => [...o.events.keys()].map((id) => `${o.id}|${id}`)).sort();
  expect(recorded, "provider events recorded").toEqual(delivered);
  // One sandbox payment per order, under the order's idempotency key.
  expect(payments.map((p) => `${p.orderId}|${p.key}`).sort(), "sandbox payments").toEqual(
    orderIds.map((id) => `${id}|order-${id}`).sort(),
  );
  // One refund asked per order at most, and only where the console accepted it.
  const refunds = model.orders.filter((o) => o.refundAsked).map((o) => o.id);
  expect(asked.map((a) => a.targetId).sort(), "refunds asked").toEqual(refunds.sort());
}
