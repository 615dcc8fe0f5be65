import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recoveryCodes } from "../../src/db/schema/index.ts";
import {
  accountsApp,
  directSessionCookie,
  errorOf,
  insertAccount,
  insertCampaign,
  mailsTo,
  resetToken,
  sessionUserId,
  signIn,
  signInCookie,
  signUp,
  tokenFromText,
  totpCode,
  uniqueEmail,
  userId,
  userRow,
} from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

/*
 * Issue 16, item 4: pre-account hijacking. An attacker signs up first with someone else's address
 * and never sees the mailbox; whatever they set before the owner confirms it must be worth nothing
 * afterwards, and only a password the mailbox owner chose may open the account.
 */

const ATTACKER_PASSWORD = "attacker-knows-this-one";
const OWNER_PASSWORD = "the-owners-own-password";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await accountsApp();
});
afterAll(async () => {
  await ctx.close();
});

/** Every verification link sent to `email`, oldest first. */
/**
 * Signs up, then sends its e-mail at once: mail jobs run in no set order, and the tests below need
 * the links in the order of the sign-ups.
 */
async function signUpAndMail(...args: Parameters<typeof signUp>) {
  const answer = await signUp(...args);
  await ctx.app.services.jobs.worker.runDue();
  return answer;
}

async function verificationLinks(email: string): Promise<string[]> {
  const mails = (await mailsTo(ctx, email)).filter((m) => m.template === "verify-email").reverse();
  return mails.map((m) => tokenFromText(m.text, "/", "emailToken"));
}

function post(url: string, cookie: string, payload?: Record<string, string>) {
  return ctx.app.inject({ method: "POST", url, headers: { cookie }, ...(payload ? { payload } : {}) });
}

/** Follows a verification link as the web page does, with a chosen password when it asks for one. */
function follow(link: string, password?: string, locale = "en") {
  return ctx.app.inject({
    method: "POST",
    url: `/auth/verify/email/${link}`,
    headers: { "x-locale": locale },
    ...(password ? { payload: { password } } : {}),
  });
}

describe("pre-account hijacking", () => {
  it("an address signed up twice: no link decides alone, the follower's chosen password is the only one", async () => {
    const email = uniqueEmail("victim");
    expect((await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD })).statusCode).toBe(201);
    const owners = await signUpAndMail(ctx, { email, password: OWNER_PASSWORD });
    expect(owners.statusCode).toBe(201);
    const [attackersLink, ownersLink] = await verificationLinks(email);
    expect(attackersLink).toBeDefined();
    expect(ownersLink).toBeDefined();

    // Even the attacker's own link, followed by the owner by mistake, gives the attacker nothing.
    for (const link of [attackersLink, ownersLink]) {
      const bare = await follow(link ?? "");
      expect(bare.statusCode).toBe(400);
      expect(errorOf(bare).errors).toHaveProperty("password");
    }
    expect((await follow(attackersLink ?? "", OWNER_PASSWORD)).statusCode).toBe(200);
    const attacker = await signIn(ctx, email, ATTACKER_PASSWORD);
    expect(attacker.statusCode).toBe(400);
    expect(errorOf(attacker).error).toBe("InvalidCredentialsException");
    expect((await signIn(ctx, email, OWNER_PASSWORD)).statusCode).toBe(200);
    // The other link died with the verification: it cannot switch the password again.
    expect((await follow(ownersLink ?? "", "a-third-password")).statusCode).toBe(400);
    expect((await signIn(ctx, email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it("a sign-up made after the owner's does not kill the owner's link", async () => {
    const email = uniqueEmail("victim-late");
    await signUpAndMail(ctx, { email, password: OWNER_PASSWORD });
    await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD });
    const [ownersLink] = await verificationLinks(email);
    expect((await follow(ownersLink ?? "", OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(ctx, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(ctx, email, ATTACKER_PASSWORD)).statusCode).toBe(400);
  });

  it("the attacker's referral and language do not survive the owner's verification", async () => {
    const attacker = await insertAccount(ctx.database);
    const campaign = await insertCampaign(ctx.database, attacker.id);
    const email = uniqueEmail("victim-ref");
    await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD, locale: "es" }, campaign.token);
    const id = await userId(ctx.database, email);
    expect((await userRow(ctx.database, id)).referredByCampaignId).toBe(campaign.id);

    await signUpAndMail(ctx, { email, password: OWNER_PASSWORD, locale: "fr" });
    const [, ownersLink] = await verificationLinks(email);
    expect((await follow(ownersLink ?? "", OWNER_PASSWORD, "fr")).statusCode).toBe(200);
    const row = await userRow(ctx.database, id);
    expect(row.referredByCampaignId).toBeNull();
    expect(row.locale).toBe("fr");
  });

  it("a resent link asks for a password, so the first registrant's never comes back", async () => {
    const email = uniqueEmail("victim-resend");
    await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD });
    const resent = await ctx.app.inject({ method: "POST", url: "/auth/email/resend", payload: { email } });
    expect(resent.statusCode).toBe(200);
    const links = await verificationLinks(email);
    const resentLink = links[links.length - 1] ?? "";

    const bare = await follow(resentLink);
    expect(bare.statusCode).toBe(400);
    expect(errorOf(bare).errors).toHaveProperty("password");
    expect((await signIn(ctx, email, ATTACKER_PASSWORD)).statusCode).toBe(401); // still unverified

    expect((await follow(resentLink, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(ctx, email, ATTACKER_PASSWORD)).statusCode).toBe(400);
    expect((await signIn(ctx, email, OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it("sessions, 2FA and recovery codes set up before verification all end with it", async () => {
    const email = uniqueEmail("victim-2fa");
    await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD });
    const id = await userId(ctx.database, email);
    // However the attacker came by a session on the unverified account, they use it to the full.
    const attackerCookie = await directSessionCookie(ctx.database, id);
    const setup = await post("/auth/2fa/setup", attackerCookie, { password: ATTACKER_PASSWORD });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const enable = await post("/auth/2fa/enable", attackerCookie, { code: totpCode(secret) });
    expect(enable.statusCode, enable.body).toBe(200);

    await signUpAndMail(ctx, { email, password: OWNER_PASSWORD });
    const [, ownersLink] = await verificationLinks(email);
    expect((await follow(ownersLink ?? "", OWNER_PASSWORD)).statusCode).toBe(200);

    expect(await sessionUserId(ctx, attackerCookie)).toBeNull();
    const row = await userRow(ctx.database, id);
    expect(row.twoFactorEnabledAt).toBeNull();
    expect(row.twoFactorSecret).toBeNull();
    expect(await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, id))).toEqual(
      [],
    );
    // No second factor asked of the owner: the attacker's authenticator is worth nothing.
    const owner = await signIn(ctx, email, OWNER_PASSWORD);
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it("an address signed up once verifies with its link alone, with that sign-up's password", async () => {
    const email = uniqueEmail("single");
    await signUpAndMail(ctx, { email, password: OWNER_PASSWORD, locale: "es" });
    const [link] = await verificationLinks(email);
    expect((await follow(link ?? "")).statusCode).toBe(200);
    expect((await signIn(ctx, email, OWNER_PASSWORD)).statusCode).toBe(200);
    expect((await userRow(ctx.database, await userId(ctx.database, email))).locale).toBe("es");
  });

  it("replays the reported attack end to end: the attacker ends with nothing, the owner with the account", async () => {
    const email = uniqueEmail("victim-e2e");
    // 1. The attacker signs up first, with a password of their own.
    await signUpAndMail(ctx, { email, password: ATTACKER_PASSWORD });
    // 2. The owner signs up later (the answer is the same as for any address)...
    await signUpAndMail(ctx, { email, password: OWNER_PASSWORD });
    // 3. ...asks for the link again, and follows the newest link in the mailbox.
    await ctx.app.inject({ method: "POST", url: "/auth/email/resend", payload: { email } });
    const links = await verificationLinks(email);
    expect((await follow(links[links.length - 1] ?? "", OWNER_PASSWORD)).statusCode).toBe(200);
    // 4. The attacker tries to sign in (to enrol 2FA): the password is dead.
    expect((await signIn(ctx, email, ATTACKER_PASSWORD)).statusCode).toBe(400);
    // 5. The owner resets the password anyway: every session ends, the new password works, no 2FA.
    const ownerCookie = await signInCookie(ctx, email, OWNER_PASSWORD);
    await ctx.app.inject({ method: "POST", url: "/auth/password/send", payload: { email } });
    const store = await ctx.app.inject({
      method: "POST",
      url: "/auth/password/store",
      payload: { token: await resetToken(ctx, email), password: "yet-another-password", turnstileToken: "x" },
    });
    expect(store.statusCode, store.body).toBe(200);
    expect(await sessionUserId(ctx, ownerCookie)).toBeNull();
    expect((await signIn(ctx, email, "yet-another-password")).statusCode).toBe(200);
    expect((await signIn(ctx, email, ATTACKER_PASSWORD)).statusCode).toBe(400);
  });
});
