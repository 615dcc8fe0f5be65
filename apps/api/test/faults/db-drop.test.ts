import {
  bankAccountSchema,
  type CheckoutResponse,
  checkoutResponseSchema,
  claimResponseSchema,
  errorResponseSchema,
  type Link,
  payoutSchema,
} from "@salelink/contracts";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import type { Config } from "../../src/config.ts";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { users } from "../../src/db/schema/index.ts";
import { rowsOf } from "../../src/modules/wallet/ledger.ts";
import {
  SANDBOX_SIGNATURE_HEADER,
  sandboxEvent,
  sandboxWebhookSecret,
  signPayload,
} from "../../src/providers/payments/index.ts";
import {
  accountWithSession,
  directSessionCookie,
  insertAccount,
  insertApprovedIdentity,
  insertCampaign,
} from "../support/accounts.ts";
import { dbKind, type TestContext, testConfig, testDatabase } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { ledgerProblems, ledgerSums } from "./checks.ts";
import { PgProxy } from "./proxy.ts";

/*
 * The database connection lost in the middle of a transaction (a proxy between the app and
 * PostgreSQL drops every socket when a chosen statement goes by): the request answers a clean 503
 * in the one error format, nothing of the transaction is left in the database (read directly, not
 * through the proxy), the app answers 503 while the database stays away, and once it is back the
 * same request succeeds at the first try (no dead connection kept in the pool).
 *
 * PostgreSQL only: PGlite runs inside the process, with no connection to lose.
 */

/** Every transaction cut here writes rows, then its ledger entries, then the running balances. */
const MIDDLE = 'insert into "ledger_entries"';

let direct: Database & { url?: string };
let proxy: PgProxy | undefined;
let proxied: Database | undefined;
let app: FastifyInstance | undefined;
let config: Config;

let referrer: { id: string; cookie: string };
let creator: { id: string; cookie: string; bankAccountId: string; link: Link };
let sale: CheckoutResponse;

const inject = (options: InjectOptions) => {
  if (!app) throw new Error("no app");
  return app.inject(options);
};

function deliverPaid(started: CheckoutResponse, eventId?: string) {
  const event = sandboxEvent("payment.succeeded", {
    paymentId: started.paymentId,
    orderId: started.orderId,
    amountMinor: started.total,
    currency: started.currency,
  });
  if (eventId) event.id = eventId;
  const raw = JSON.stringify(event);
  const signature = signPayload(raw, sandboxWebhookSecret(config.appSecret), Math.floor(Date.now() / 1000));
  return {
    id: event.id,
    send: () =>
      inject({
        method: "POST",
        url: "/webhooks/sandbox",
        payload: raw,
        headers: { "content-type": "application/json", [SANDBOX_SIGNATURE_HEADER]: signature },
      }),
  };
}

/** Runs `request` with the connections cut at MIDDLE; checks the answer is a clean 503. */
async function cutDuring(request: () => Promise<LightMyRequestResponse>): Promise<void> {
  if (!proxy) throw new Error("no proxy");
  const cuts = proxy.cuts;
  proxy.cutAt(MIDDLE);
  const res = await request();
  // The statement went by: the transaction was cut in its middle, not before or after.
  expect(proxy.cuts).toBe(cuts + 1);
  expect(res.statusCode, res.body).toBe(503);
  expect(errorResponseSchema.parse(res.json())).toMatchObject({ error: "ServiceUnavailableException" });
  // Neither a stack trace nor the driver's own words reach the client.
  expect(res.body).not.toMatch(/\n\s+at |Error:|terminated|ECONN|postgres/i);
  // The database is still away: other requests fail the same way, and the app keeps serving.
  const meanwhile = await inject({ method: "GET", url: "/wallet", headers: { cookie: creator.cookie } });
  expect(meanwhile.statusCode, meanwhile.body).toBe(503);
  expect((await inject({ method: "GET", url: "/health" })).statusCode).toBe(503);
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: string }>(await direct.db.execute(query))[0]?.n ?? -1);
}

describe.skipIf(dbKind !== "postgres")("the database connection lost mid-transaction", () => {
  beforeAll(async () => {
    direct = await testDatabase();
    if (!direct.url) throw new Error("no database url");
    const target = new URL(direct.url);
    proxy = await PgProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    proxied = await openDatabase({
      url: proxy.urlFor(direct.url),
      dataDir: "unused",
      poolSize: 5,
      onPoolError: () => undefined,
    });
    config = testConfig();
    app = await buildApp({ config, db: proxied.db });
    await app.ready();

    const context = { app, database: proxied, config, close: async () => undefined } as TestContext;
    const shop = checkoutHelpers(() => context);
    referrer = await accountWithSession(direct, { onboarded: true });
    const campaign = await insertCampaign(direct, referrer.id);
    const c = await insertAccount(direct, { onboarded: true });
    await direct.db.update(users).set({ referredByCampaignId: campaign.id }).where(eq(users.id, c.id));
    await insertApprovedIdentity(direct, c.id);
    const cookie = await directSessionCookie(direct, c.id);
    const bank = await inject({
      method: "POST",
      url: "/profile/bank-accounts",
      headers: { cookie },
      payload: { holderName: "Ada Lovelace", iban: "DE89370400440532013000" },
    });
    expect(bank.statusCode, bank.body).toBe(201);
    const link = await shop.newLink(cookie);
    creator = { id: c.id, cookie, bankAccountId: bankAccountSchema.parse(bank.json()).id, link };
    sale = checkoutResponseSchema.parse((await shop.checkout(link.token)).json());
  }, 60_000);

  // Each case starts with the database reachable, whatever the previous one left.
  afterEach(() => proxy?.restore());

  afterAll(async () => {
    await app?.close();
    proxy?.restore();
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
  });

  it("a payment's webhook: nothing applied, then applied once on redelivery", async () => {
    const delivery = deliverPaid(sale);
    await cutDuring(delivery.send);

    const [order] = rowsOf<{ status: string }>(
      await direct.db.execute(sql`select status from orders where id = ${sale.orderId}`),
    );
    expect(order?.status).toBe("pending");
    expect(await count(sql`select count(*) as n from payment_events where event_id = ${delivery.id}`)).toBe(
      0,
    );
    expect(
      await count(sql`select count(*) as n from ledger_transactions where reference = ${sale.orderId}`),
    ).toBe(0);
    expect(await count(sql`select sales_count as n from links where id = ${creator.link.id}`)).toBe(0);
    expect(await ledgerProblems(direct.db)).toEqual([]);

    proxy?.restore();
    const again = await deliverPaid(sale, delivery.id).send();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ received: true, result: "applied" });
    expect(
      await count(sql`select count(*) as n from orders where id = ${sale.orderId} and status = 'paid'`),
    ).toBe(1);
    expect(await ledgerProblems(direct.db)).toEqual([]);
  });

  it("a commission claim: no claim, no order marked, then claimed once", async () => {
    const released = await inject({
      method: "POST",
      url: "/dev/holds/release",
      payload: { asOf: new Date(Date.now() + 30 * 86_400_000).toISOString(), orderIds: [sale.orderId] },
    });
    expect(released.json()).toEqual({ released: 1 });
    const claimable = (await ledgerSums(direct.db, referrer.id)).get("EUR:affiliate_claimable");
    expect(claimable).toBeGreaterThan(0);

    await cutDuring(() =>
      inject({ method: "POST", url: "/campaigns/claim", headers: { cookie: referrer.cookie } }),
    );
    expect(await count(sql`select count(*) as n from commission_claims where user_id = ${referrer.id}`)).toBe(
      0,
    );
    expect(
      await count(
        sql`select count(*) as n from orders where id = ${sale.orderId} and commission_claim_id is not null`,
      ),
    ).toBe(0);
    expect((await ledgerSums(direct.db, referrer.id)).get("EUR:affiliate_claimable")).toBe(claimable);
    expect(await ledgerProblems(direct.db)).toEqual([]);

    proxy?.restore();
    const claim = await inject({
      method: "POST",
      url: "/campaigns/claim",
      headers: { cookie: referrer.cookie },
    });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claimResponseSchema.parse(claim.json())).toMatchObject({ amount: claimable, currency: "EUR" });
    expect(await ledgerProblems(direct.db)).toEqual([]);
  });

  it("a payout request: no payout, the balance untouched, then requested once", async () => {
    const available = (await ledgerSums(direct.db, creator.id)).get("EUR:available");
    expect(available).toBeGreaterThanOrEqual(config.rules.payoutMinimumMinor);
    const request = () =>
      inject({
        method: "POST",
        url: "/profile/payout",
        headers: { cookie: creator.cookie },
        payload: { bankAccountId: creator.bankAccountId, currency: "EUR" },
      });

    await cutDuring(request);
    expect(await count(sql`select count(*) as n from payouts where user_id = ${creator.id}`)).toBe(0);
    expect((await ledgerSums(direct.db, creator.id)).get("EUR:available")).toBe(available);
    expect(await ledgerProblems(direct.db)).toEqual([]);

    proxy?.restore();
    const res = await request();
    expect(res.statusCode, res.body).toBe(201);
    expect(payoutSchema.parse(res.json())).toMatchObject({ amount: available, status: "requested" });
    expect(await ledgerProblems(direct.db)).toEqual([]);
  });
});
