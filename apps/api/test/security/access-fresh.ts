import { randomUUID } from "node:crypto";
import {
  bankAccountSchema,
  checkoutResponseSchema,
  creatorProfileSchema,
  linkSchema,
  payoutSchema,
  promoCodeSchema,
  sandboxCards,
  twoFactorEnableResponseSchema,
  twoFactorSetupResponseSchema,
} from "@salelink/contracts";
import { desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { z } from "zod";
import { reports } from "../../src/db/schema/index.ts";
import { post } from "../../src/modules/wallet/ledger.ts";
import { holdReleased, orderPaid, splitSale } from "../../src/modules/wallet/postings.ts";
import { nextTotpCode } from "../support/accounts.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import {
  approvedIdentity,
  BANK_BODY,
  newParty,
  type Party,
  promoCode,
  send,
  type World,
} from "./access-fixtures.ts";

/*
 * Resources made for one row of the matrix, so that a call that destroys or changes them (a delete,
 * a suspension, a takedown) leaves the shared fixtures as the other rows expect them.
 */

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

async function json<T>(
  world: World,
  method: Method,
  url: string,
  cookie: string | undefined,
  payload: object | undefined,
  schema: z.ZodType<T>,
) {
  const res = await send(world.ctx, method, url, { cookie, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return schema.parse(res.json());
}

/** A link of the shared creator, with no sale (so a delete really deletes it). */
export async function freshLink(world: World) {
  const { creator } = world;
  const body = { profileId: creator.profile.id, title: "Spare pack", priceMinor: 1500, currency: "EUR" };
  return json(world, "POST", "/links", creator.cookie, body, linkSchema);
}

export async function freshProfile(world: World) {
  const body = { displayName: "Spare", handle: `s_${randomUUID().slice(0, 8)}` };
  return json(world, "POST", "/profiles", world.creator.cookie, body, creatorProfileSchema);
}

export async function freshPromo(world: World) {
  const body = { kind: "percent", value: 5, code: promoCode() };
  return json(world, "POST", "/promo-codes", world.creator.cookie, body, promoCodeSchema);
}

export async function freshBank(world: World) {
  return json(world, "POST", "/profile/bank-accounts", world.creator.cookie, BANK_BODY, bankAccountSchema);
}

/** A checkout of the shared creator's link, started and not paid. */
export async function freshCheckout(world: World) {
  const res = await checkoutHelpers(() => world.ctx).checkout(world.creator.link.token);
  expect(res.statusCode, res.body).toBe(201);
  return checkoutResponseSchema.parse(res.json());
}

/** A paid sale of a link of its own (a refund or a takedown then touches nothing else). */
export async function freshSale(world: World) {
  const shop = checkoutHelpers(() => world.ctx);
  const started = checkoutResponseSchema.parse((await shop.checkout((await freshLink(world)).token)).json());
  await shop.pay(started);
  return started;
}

/** A report on a link of its own, waiting for an admin. */
export async function freshReport(world: World): Promise<string> {
  const link = await freshLink(world);
  const res = await send(world.ctx, "POST", "/report", {
    payload: { token: link.token, reason: "illegal", message: "This link sells something unlawful." },
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await world.ctx.database.db
    .select({ id: reports.id })
    .from(reports)
    .where(eq(reports.linkId, link.id))
    .orderBy(desc(reports.createdAt))
    .limit(1);
  if (!row) throw new Error("report not filed");
  return row.id;
}

/**
 * A payout asked by a creator of its own (one open payout per account), from a balance posted as
 * a released sale posts it; approved by the admin when `processing` is asked for.
 */
export async function freshPayout(world: World, status: "requested" | "processing"): Promise<string> {
  const party = await newParty(world.ctx);
  await approvedIdentity(world.ctx, party.cookie);
  const bank = await json(
    world,
    "POST",
    "/profile/bank-accounts",
    party.cookie,
    BANK_BODY,
    bankAccountSchema,
  );
  const facts = {
    orderId: randomUUID(),
    creatorId: party.id,
    referrerId: null,
    partnerId: null,
    currency: "EUR" as const,
    split: splitSale(5000, 0, null),
    availableAt: new Date(Date.now() - 1000),
  };
  await world.ctx.database.db.transaction(async (tx) => {
    await post(tx, orderPaid(facts));
    await post(tx, holdReleased(facts));
  });
  const payout = await json(
    world,
    "POST",
    "/profile/payout",
    party.cookie,
    { bankAccountId: bank.id },
    payoutSchema,
  );
  if (status === "processing") {
    const res = await send(world.ctx, "POST", `/admin/payouts/${payout.id}/approve`, {
      cookie: world.admin.cookie,
      payload: { reason: "Checked by the access matrix" },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return payout.id;
}

/** Two-factor authentication switched on for `party`; answers one of its recovery codes. */
export async function twoFactorOn(world: World, party: Party): Promise<string> {
  const setup = await json(
    world,
    "POST",
    "/auth/2fa/setup",
    party.cookie,
    undefined,
    twoFactorSetupResponseSchema,
  );
  const res = await send(world.ctx, "POST", "/auth/2fa/enable", {
    cookie: party.cookie,
    payload: { code: nextTotpCode(setup.secret) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [code] = twoFactorEnableResponseSchema.parse(res.json()).recoveryCodes;
  if (!code) throw new Error("no recovery code");
  return code;
}

export const sandboxCard = (card: string) => ({ card, expiry: "12/34", cvc: "123" });
export { sandboxCards };
