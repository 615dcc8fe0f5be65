import { type Wallet, walletHeldShown } from "@salelink/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { accountWithSession } from "../support/accounts.ts";
import { type TestContext, testApp } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";

/*
 * GET /wallet stays bounded however many sales are held (a launch holds thousands): it lists the
 * ones available soonest, while the pending balance still counts every one.
 */

let ctx: TestContext;
let creator: { id: string; cookie: string };
const { call, sale } = checkoutHelpers(() => ctx);
const sales = walletHeldShown + 2;

beforeAll(async () => {
  ctx = await testApp({ HOLD_DAYS: "7" });
  creator = await accountWithSession(ctx.database, { onboarded: true });
  for (let i = 0; i < sales; i++) await sale(creator.cookie);
}, 120_000);
afterAll(() => ctx.close());

it("lists the held sales available soonest, and the pending balance counts them all", async () => {
  const wallet = (await call("GET", "/wallet", undefined, creator.cookie)).json<Wallet>();
  expect(wallet.held).toHaveLength(walletHeldShown);
  const times = wallet.held.map((h) => new Date(h.availableAt).getTime());
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // Each sale of 20.00 leaves 18.00 to the creator (the 10% fee).
  expect(wallet.balances[0]?.pending).toBe(sales * 1800);
});
