import type { AdminReferralFlagList, Campaign, CheckoutResponse, ClaimResponse } from "@salelink/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountSignals,
  bankAccounts,
  ledgerTransactions,
  orders,
  referralFlags,
  users,
} from "../../src/db/schema/index.ts";
import { normaliseEmail } from "../../src/modules/affiliates/self-referral/signals.ts";
import { releaseHoldsAsOf } from "../../src/modules/orders/service.ts";
import { auditLedger, balancesOf } from "../../src/modules/wallet/ledger.ts";
import { testIban } from "../money/model-world.ts";
import {
  accountsApp,
  directSessionCookie,
  insertAccount,
  insertApprovedIdentity,
  userId,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * Issue 16, self-referral: an account referred by its referrer's own second account earns nothing.
 * Each test performs the attack (the same mailbox, the same sign-up device, the same payout IBAN)
 * through the API and checks the referrer earns nothing, the admin sees the flag with its signal,
 * and the ledger stays balanced.
 */

let ctx: TestContext;
const helpers = checkoutHelpers(() => ctx);
const { call, checkout, pay } = helpers;
const runJobs = () => ctx.app.services.jobs.worker.runDue();

interface Person {
  id: string;
  email: string;
  cookie: string;
}

let admin: Person;
let stamp = 0;
const unique = (label: string) => {
  stamp += 1;
  return `${label}${Date.now().toString(36)}${stamp}`;
};

async function person(params: { email?: string; role?: "admin" } = {}): Promise<Person> {
  const account = await insertAccount(ctx.database, {
    onboarded: true,
    ...(params.email ? { email: params.email } : {}),
  });
  if (params.role)
    await ctx.database.db.update(users).set({ role: params.role }).where(eq(users.id, account.id));
  await insertApprovedIdentity(ctx.database, account.id);
  return { ...account, cookie: await directSessionCookie(ctx.database, account.id) };
}

const browser = (build: string) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.${build} Safari/537.36`;

/** Signs up through the API from a given device, optionally through a campaign; verified directly. */
async function signUpFrom(device: { ip: string; ua: string }, email: string, ref?: string): Promise<Person> {
  const res = await ctx.app.inject({
    method: "POST",
    url: ref ? `/auth/signup?ref=${encodeURIComponent(ref)}` : "/auth/signup",
    remoteAddress: device.ip,
    headers: { "user-agent": device.ua },
    payload: {
      email,
      password: "correct-horse-battery",
      acceptTerms: true,
      locale: "en",
      turnstileToken: "ok",
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = await userId(ctx.database, email);
  await ctx.database.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), onboardingCompletedAt: new Date() })
    .where(eq(users.id, id));
  await insertApprovedIdentity(ctx.database, id);
  return { id, email, cookie: await directSessionCookie(ctx.database, id) };
}

async function campaignOf(owner: Person): Promise<Campaign> {
  const res = await call("POST", "/campaigns", { name: "Friends" }, owner.cookie);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Campaign>();
}

async function sale(seller: Person, priceMinor = 2000): Promise<string> {
  const link = await helpers.newLink(seller.cookie, { priceMinor });
  const started = (await checkout(link.token)).json<CheckoutResponse>();
  await pay(started);
  return started.orderId;
}

async function order(id: string) {
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`no order ${id}`);
  return row;
}

async function balance(holder: string, account: string) {
  const all = await balancesOf(ctx.database.db, holder);
  return all.find((b) => b.account === account && b.currency === "EUR")?.balanceMinor ?? 0;
}

async function flags(): Promise<AdminReferralFlagList> {
  const res = await call("GET", "/admin/referral-flags", undefined, admin.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AdminReferralFlagList>();
}

const flagOf = async (referredId: string) => (await flags()).items.find((f) => f.referred.id === referredId);

async function addIban(who: Person, iban: string) {
  return call("POST", "/profile/bank-accounts", { holderName: "Ada Lovelace", iban }, who.cookie);
}

async function voids(orderIds: string[]) {
  return ctx.database.db
    .select({ reference: ledgerTransactions.reference })
    .from(ledgerTransactions)
    .where(
      and(eq(ledgerTransactions.kind, "commission_void"), inArray(ledgerTransactions.reference, orderIds)),
    );
}

const release = (ids: string[]) =>
  releaseHoldsAsOf(ctx.database.db, new Date(Date.now() + 8 * 86_400_000), ids);

beforeAll(async () => {
  ctx = await accountsApp({ HOLD_DAYS: "7", WEB_ORIGIN: "https://salelink.example" });
  admin = await person({ role: "admin" });
});
afterAll(async () => {
  await ctx.close();
});

describe("self-referral (issue 16)", () => {
  it("normalises e-mail addresses to the mailbox they reach", () => {
    expect(normaliseEmail("Ada.Lovelace+second@GMail.com")).toBe("adalovelace@gmail.com");
    expect(normaliseEmail("a.d.a@googlemail.com")).toBe("ada@gmail.com");
    expect(normaliseEmail("Ada.Lovelace+shop@example.org")).toBe("ada.lovelace@example.org");
    expect(normaliseEmail("ada.lovelace@example.org")).not.toBe(normaliseEmail("adalovelace@example.org"));
  });

  it("a referral from the referrer's own mailbox earns nothing and is flagged 'email'", async () => {
    const name = unique("ada.lovelace");
    const referrer = await person({ email: `${name}@gmail.com` });
    const campaign = await campaignOf(referrer);
    // The attack: the same gmail mailbox, written with its dots removed, a +tag and another domain.
    const second = await signUpFrom(
      { ip: "203.0.113.10", ua: browser("1") },
      `${name.replace(/\./g, "")}+alt@googlemail.com`,
      campaign.token,
    );
    const orderId = await sale(second);
    const paid = await order(orderId);
    expect(paid.status).toBe("paid");
    expect(paid.commissionMinor).toBe(0);
    expect(paid.referrerId).toBeNull();
    expect(await balance(referrer.id, "affiliate_pending")).toBe(0);
    expect(await flagOf(second.id)).toMatchObject({
      referrer: { id: referrer.id, email: referrer.email },
      signal: "email",
      voidedCommissions: 0,
    });
  });

  it("a referral signed up from the referrer's own sign-up device earns nothing; another device does", async () => {
    const device = { ip: "203.0.113.20", ua: browser("2") };
    const referrer = await signUpFrom(device, `${unique("grace")}@example.org`);
    const campaign = await campaignOf(referrer);
    // The attack: a second account, another address, from the very same browser and address.
    const second = await signUpFrom(device, `${unique("hopper")}@example.net`, campaign.token);
    // A real friend: another machine (the same office address, another browser).
    const friend = await signUpFrom(
      { ip: device.ip, ua: browser("3") },
      `${unique("friend")}@example.com`,
      campaign.token,
    );
    expect(await flagOf(second.id)).toMatchObject({ signal: "signup_device", referrer: { id: referrer.id } });
    expect(await flagOf(friend.id)).toBeUndefined();

    const selfSale = await order(await sale(second));
    const friendSale = await order(await sale(friend));
    expect(selfSale.commissionMinor).toBe(0);
    expect(friendSale.commissionMinor).toBe(40);
    expect(friendSale.referrerId).toBe(referrer.id);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(40);

    // Only keyed hashes are kept: no address, user agent or e-mail in the signals table.
    const stored = JSON.stringify(
      await ctx.database.db.select().from(accountSignals).where(eq(accountSignals.userId, second.id)),
    );
    expect(stored).not.toContain(device.ip);
    expect(stored).not.toContain("Mozilla");
    expect(stored).not.toContain(second.email);
  });

  it("an IBAN shared later voids the unclaimed commissions, one reversal per order; a claimed one stays claimed", async () => {
    const referrer = await person();
    const campaign = await campaignOf(referrer);
    const second = await signUpFrom(
      { ip: "203.0.113.30", ua: browser("4") },
      `${unique("second")}@example.net`,
      campaign.token,
    );
    // Sales before anything is known: one claimed, one claimable, one still held.
    const claimed = await sale(second);
    await release([claimed]);
    const claim = await call("POST", "/campaigns/claim", undefined, referrer.cookie);
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json<ClaimResponse>().amount).toBe(40);
    const claimable = await sale(second);
    await release([claimable]);
    const held = await sale(second, 1035);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(40);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(21);
    expect(await balance(referrer.id, "available")).toBe(40);

    // The attack's tell: both accounts pay out to one IBAN (in any order; here the referrer's first).
    const iban = testIban();
    expect((await addIban(referrer, iban)).statusCode).toBe(201);
    expect(await flagOf(second.id)).toBeUndefined();
    expect((await addIban(second, iban.replace(/(.{4})/g, "$1 ").toLowerCase())).statusCode).toBe(201);

    expect(await flagOf(second.id)).toMatchObject({ signal: "iban", voidedCommissions: 2 });
    expect((await voids([claimed, claimable, held])).map((v) => v.reference).sort()).toEqual(
      [claimable, held].sort(),
    );
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(0);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(0);
    // The claimed commission reached the wallet and stays there.
    expect(await balance(referrer.id, "available")).toBe(40);
    expect((await order(claimed)).commissionClaimId).not.toBeNull();
    expect((await order(claimed)).commissionMinor).toBe(40);
    expect((await order(claimable)).commissionMinor).toBe(0);
    expect((await order(held)).commissionMinor).toBe(0);
    expect((await call("POST", "/campaigns/claim", undefined, referrer.cookie)).statusCode).toBe(409);
    // The referrer's wallet shows the reversals for what they are.
    const movements = await call("GET", "/transactions?kind=commission_void", undefined, referrer.cookie);
    expect(movements.statusCode, movements.body).toBe(200);
    expect(movements.json<{ items: unknown[] }>().items).toHaveLength(2);

    // Later: the held sale's hold ends, then it is refunded; a new sale earns nothing.
    await release([held]);
    const refund = await call(
      "POST",
      `/admin/orders/${held}/refund`,
      { reason: "Buyer asked for it" },
      admin.cookie,
    );
    expect(refund.statusCode, refund.body).toBe(202);
    await runJobs();
    expect((await order(held)).status).toBe("refunded");
    expect((await order(await sale(second))).commissionMinor).toBe(0);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(0);
    expect(await balance(referrer.id, "affiliate_claimable")).toBe(0);
    expect(await auditLedger(ctx.database.db)).toEqual({
      unbalancedTransactions: [],
      balancesNotMatchingEntries: [],
      negativeBalances: [],
    });
  });

  it("an IBAN match on a referral whose commissions were all claimed only flags it", async () => {
    const referrer = await person();
    const campaign = await campaignOf(referrer);
    const second = await signUpFrom(
      { ip: "203.0.113.40", ua: browser("5") },
      `${unique("claimed")}@example.net`,
      campaign.token,
    );
    const sold = await sale(second);
    await release([sold]);
    expect((await call("POST", "/campaigns/claim", undefined, referrer.cookie)).statusCode).toBe(200);
    const iban = testIban();
    // This time the referred account's IBAN comes first, the referrer's second.
    expect((await addIban(second, iban)).statusCode).toBe(201);
    expect((await addIban(referrer, iban)).statusCode).toBe(201);
    expect(await flagOf(second.id)).toMatchObject({ signal: "iban", voidedCommissions: 0 });
    expect(await voids([sold])).toEqual([]);
    expect(await balance(referrer.id, "available")).toBe(40);
    expect((await order(sold)).commissionClaimId).not.toBeNull();
  });

  it("voids nothing at all when a reversal cannot be posted: the bank account, flag and commissions stay as they were", async () => {
    const referrer = await person();
    const campaign = await campaignOf(referrer);
    const second = await signUpFrom(
      { ip: "203.0.113.50", ua: browser("6") },
      `${unique("fails")}@example.net`,
      campaign.token,
    );
    const held = await sale(second);
    // A reversal already recorded for the order (a bug, or a concurrent void): posting it again must
    // not pass silently.
    await ctx.database.db.insert(ledgerTransactions).values({ kind: "commission_void", reference: held });
    const iban = testIban();
    expect((await addIban(referrer, iban)).statusCode).toBe(201);
    const res = await addIban(second, iban);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("voided");
    expect(await flagOf(second.id)).toBeUndefined();
    expect((await order(held)).commissionMinor).toBe(40);
    expect(await balance(referrer.id, "affiliate_pending")).toBe(40);
    const banks = await ctx.database.db
      .select()
      .from(bankAccounts)
      .where(eq(bankAccounts.ownerId, second.id));
    expect(banks).toEqual([]);
    const rows = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(referralFlags)
      .where(eq(referralFlags.referredId, second.id));
    expect(rows[0]?.n).toBe(0);
  });
});
