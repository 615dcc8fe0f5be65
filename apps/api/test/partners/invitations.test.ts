import {
  type InvitationPreview,
  type MembershipResult,
  PARTNER_INVITATION_TTL_DAYS,
  PARTNER_INVITATIONS_PER_DAY,
  type PartnerInvitation,
  type PartnerInvitationList,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerInvitations, partnerMemberships } from "../../src/db/schema/index.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import { errorOf, lastMail, tokenFromText, uniqueEmail } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { caller, joined, type Someone, saveProgramme, shop, someone } from "./support.ts";

let ctx: TestContext;
let call: ReturnType<typeof caller>;
let ada: Someone;

beforeAll(async () => {
  ctx = await testApp();
  call = caller(ctx);
  ada = await someone(ctx);
  await shop(ctx, ada.cookie, "Ada Lovelace");
  await saveProgramme(ctx, ada.cookie, { joinMode: "invitation", defaultRateBps: 1250 });
});
afterAll(() => ctx.close());

const DAY_MS = 86_400_000;

async function invite(creator: Someone, email: string, headers: Record<string, string> = {}) {
  const res = await call("POST", "/partner-programme/invitations", creator.cookie, { email }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PartnerInvitation>();
}

/** The token of the newest invitation e-mailed to `email`, checking its link. */
async function invitationToken(email: string): Promise<string> {
  const mail = await lastMail(ctx, email, "partner-invitation");
  const links = mail.text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  const prefix = `${ctx.config.WEB_ORIGIN}/programmes/join/`;
  const link = links.find((l) => l.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in:\n${mail.text}`);
  const token = link.slice(prefix.length);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

/** Deletes an account through its e-mailed deletion link. */
async function deleteAccount(who: Someone) {
  expect((await call("POST", "/profile/delete", who.cookie)).statusCode).toBe(200);
  const mail = await lastMail(ctx, who.email, "delete-account");
  const token = tokenFromText(mail.text, "/", "deletionToken");
  const res = await call("DELETE", `/profile/delete/${token}`);
  expect(res.statusCode, res.body).toBe(200);
}

const accept = (who: Someone, token: string, headers: Record<string, string> = {}) =>
  call("POST", `/programmes/invitations/${token}/accept`, who.cookie, undefined, headers);

const pending = async (creator: Someone) =>
  (await call("GET", "/partner-programme/invitations", creator.cookie)).json<PartnerInvitationList>().items;

describe(`inviting partners by e-mail (${dbKind})`, () => {
  it("e-mails a link valid 7 days, in the caller's language, and lists it pending without its token", async () => {
    const email = uniqueEmail("invitee");
    const started = Date.now();
    const invitation = await invite(ada, email.toUpperCase(), { "accept-language": "fr" });
    expect(invitation.email).toBe(email);
    const expiresIn = new Date(invitation.expiresAt).getTime() - started;
    expect(Math.abs(expiresIn - PARTNER_INVITATION_TTL_DAYS * DAY_MS)).toBeLessThan(60_000);

    const mail = await lastMail(ctx, email, "partner-invitation");
    expect(mail.locale).toBe("fr");
    expect(mail.subject).toBe("Ada Lovelace vous invite dans son programme de partenaires");
    expect(mail.text).toContain("Cette invitation expire dans 7 jours.");
    expect(mail.text).toMatch(/12,5\s?%/);
    const token = await invitationToken(email);

    const res = await call("GET", "/partner-programme/invitations", ada.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<PartnerInvitationList>().items[0]).toEqual(invitation);
    expect(res.body).not.toContain(token);
    expect(res.body).not.toContain(hashToken(token));
    // Stored hashed only.
    const [row] = await ctx.database.db
      .select()
      .from(partnerInvitations)
      .where(eq(partnerInvitations.id, invitation.id));
    expect(row?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("sends English and Spanish e-mails to English and Spanish callers", async () => {
    const en = uniqueEmail("invitee");
    const es = uniqueEmail("invitee");
    await invite(ada, en);
    await invite(ada, es, { "x-locale": "es" });
    expect((await lastMail(ctx, en, "partner-invitation")).subject).toBe(
      "Ada Lovelace invites you to their partner programme",
    );
    const spanish = await lastMail(ctx, es, "partner-invitation");
    expect(spanish.locale).toBe("es");
    expect(spanish.text).toContain("Esta invitación caduca en 7 días.");
  });

  it("refuses a malformed address with a field error in the caller's language, and oneself", async () => {
    for (const email of ["not-an-email", "", "a@", "x".repeat(300)]) {
      const res = await call(
        "POST",
        "/partner-programme/invitations",
        ada.cookie,
        { email },
        { "accept-language": "fr" },
      );
      expect(res.statusCode, email).toBe(400);
      expect(errorOf(res).message).toBe("Certains champs ne sont pas valides.");
      expect(errorOf(res).errors?.email?.length).toBeGreaterThan(0);
    }
    const french = errorOf(
      await call(
        "POST",
        "/partner-programme/invitations",
        ada.cookie,
        { email: "nope" },
        { "accept-language": "fr" },
      ),
    );
    expect(french.errors?.email?.[0]).toMatch(/invalide/i);
    const self = await call("POST", "/partner-programme/invitations", ada.cookie, { email: ada.email });
    expect(self.statusCode).toBe(400);
    expect(errorOf(self).errors).toEqual({ email: ["You cannot invite yourself."] });
    expect(
      (await call("POST", "/partner-programme/invitations", undefined, { email: "a@b.test" })).statusCode,
    ).toBe(401);
  });

  it("accepts once: an active membership; a used, expired or unknown link gets the same 404", async () => {
    const email = uniqueEmail("invitee");
    await invite(ada, email);
    const token = await invitationToken(email);
    const partner = await someone(ctx);
    const res = await accept(partner, token);
    expect(res.statusCode, res.body).toBe(200);
    const membership = res.json<MembershipResult>();
    expect(membership).toMatchObject({ creatorId: ada.id, status: "active" });
    expect((await pending(ada)).map((i) => i.email)).not.toContain(email);

    const used = await accept(await someone(ctx), token);
    const again = await accept(partner, token);
    const unknown = await accept(partner, "A".repeat(43));
    const expiredEmail = uniqueEmail("invitee");
    await invite(ada, expiredEmail);
    const expiredToken = await invitationToken(expiredEmail);
    await ctx.database.db
      .update(partnerInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(partnerInvitations.tokenHash, hashToken(expiredToken)));
    const expired = await accept(partner, expiredToken);
    for (const r of [used, again, unknown, expired]) {
      expect(r.statusCode).toBe(404);
      expect(errorOf(r)).toEqual({
        statusCode: 404,
        error: "NotFoundException",
        message: "This invitation is invalid or has expired.",
      });
    }
    const french = await accept(partner, expiredToken, { "accept-language": "fr" });
    expect(errorOf(french).message).toBe("Cette invitation n'est pas valide ou a expiré.");
    expect((await pending(ada)).map((i) => i.email)).not.toContain(expiredEmail);
    expect((await accept(partner, "short")).statusCode).toBe(400);
    expect((await call("POST", `/programmes/invitations/${token}/accept`)).statusCode).toBe(401);
  });

  it("re-activates a removed partner's membership, with the same code", async () => {
    const creator = await someone(ctx);
    await saveProgramme(ctx, creator.cookie, { joinMode: "open" });
    const partner = await someone(ctx);
    const first = await joined(ctx, partner.cookie, creator.id);
    expect((await call("DELETE", `/partner-programme/partners/${first.id}`, creator.cookie)).statusCode).toBe(
      200,
    );
    await invite(creator, partner.email);
    const res = await accept(partner, await invitationToken(partner.email));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MembershipResult>()).toEqual({ ...first, status: "active" });
    const [row] = await ctx.database.db
      .select()
      .from(partnerMemberships)
      .where(eq(partnerMemberships.id, first.id));
    expect(row).toMatchObject({ status: "active", removedAt: null });
    // Now a partner: inviting them again is a conflict.
    const again = await call("POST", "/partner-programme/invitations", creator.cookie, {
      email: partner.email,
    });
    expect(again.statusCode).toBe(409);
  });

  it("lets a new invitation to the same address replace the pending one", async () => {
    const email = uniqueEmail("invitee");
    await invite(ada, email);
    const oldToken = await invitationToken(email);
    await invite(ada, email);
    const newToken = await invitationToken(email);
    expect(newToken).not.toBe(oldToken);
    expect((await pending(ada)).filter((i) => i.email === email)).toHaveLength(1);
    const partner = await someone(ctx);
    expect((await accept(partner, oldToken)).statusCode).toBe(404);
    expect((await accept(partner, newToken)).statusCode).toBe(200);
  });

  it("refuses one's own invitation and a programme turned off, and keeps the link usable", async () => {
    const creator = await someone(ctx);
    await saveProgramme(ctx, creator.cookie, { joinMode: "invitation" });
    const email = uniqueEmail("invitee");
    await invite(creator, email);
    const token = await invitationToken(email);
    expect((await accept(creator, token)).statusCode).toBe(400);
    await saveProgramme(ctx, creator.cookie, { enabled: false, joinMode: "invitation" });
    const partner = await someone(ctx);
    expect((await accept(partner, token)).statusCode).toBe(403);
    await saveProgramme(ctx, creator.cookie, { joinMode: "invitation" });
    expect((await accept(partner, token)).statusCode).toBe(200);
  });

  it("shows what an invitation offers to whoever holds the link, until it is used", async () => {
    const email = uniqueEmail("invitee");
    const invitation = await invite(ada, email);
    const token = await invitationToken(email);
    const preview = await call("GET", `/programmes/invitations/${token}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.headers["cache-control"]).toBe("no-store");
    expect(preview.json<InvitationPreview>()).toMatchObject({
      creator: { id: ada.id, displayName: "Ada Lovelace" },
      defaultRateBps: 1250,
      joinMode: "invitation",
      expiresAt: invitation.expiresAt,
    });
    expect((await accept(await someone(ctx), token)).statusCode).toBe(200);
    expect((await call("GET", `/programmes/invitations/${token}`)).statusCode).toBe(404);
    expect((await call("GET", `/programmes/invitations/${"x".repeat(43)}`)).statusCode).toBe(404);
    expect((await call("GET", "/programmes/invitations/short")).statusCode).toBe(400);
  });

  it("cancels a pending invitation of one's own: its link stops working; nobody else can", async () => {
    const email = uniqueEmail("invitee");
    const invitation = await invite(ada, email);
    const token = await invitationToken(email);
    const other = await someone(ctx);
    const foreign = await call("DELETE", `/partner-programme/invitations/${invitation.id}`, other.cookie);
    expect(foreign.statusCode).toBe(404);
    const cancelled = await call(
      "DELETE",
      `/partner-programme/invitations/${invitation.id}`,
      ada.cookie,
      undefined,
      {
        "accept-language": "fr",
      },
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ message: string }>().message).toBe("Invitation annulée.");
    expect((await pending(ada)).map((i) => i.id)).not.toContain(invitation.id);
    expect((await accept(await someone(ctx), token)).statusCode).toBe(404);
    const again = await call("DELETE", `/partner-programme/invitations/${invitation.id}`, ada.cookie);
    expect(again.statusCode).toBe(404);
    expect((await call("DELETE", "/partner-programme/invitations/nope", ada.cookie)).statusCode).toBe(400);
  });

  it("erases the addresses of invitations when an account is deleted, its own and those to it", async () => {
    const creator = await someone(ctx);
    await saveProgramme(ctx, creator.cookie, { joinMode: "invitation" });
    const invitee = await someone(ctx);
    await invite(creator, invitee.email);
    await invite(ada, invitee.email);
    const inviteeToken = await invitationToken(invitee.email);
    await invite(creator, uniqueEmail("someone-else"));
    // The creator goes: the addresses they invited go with them.
    await deleteAccount(creator);
    const ofCreator = await ctx.database.db
      .select()
      .from(partnerInvitations)
      .where(eq(partnerInvitations.creatorId, creator.id));
    expect(ofCreator).toEqual([]);
    // The invitee goes: Ada's invitation keeps no address and no longer works.
    await deleteAccount(invitee);
    const toInvitee = await ctx.database.db
      .select()
      .from(partnerInvitations)
      .where(eq(partnerInvitations.email, invitee.email.toLowerCase()));
    expect(toInvitee).toEqual([]);
    expect((await accept(await someone(ctx), inviteeToken)).statusCode).toBe(404);
  });

  it("shows each creator only their own invitations", async () => {
    const other = await someone(ctx);
    const email = uniqueEmail("invitee");
    await invite(ada, email);
    expect((await pending(other)).map((i) => i.email)).not.toContain(email);
    expect((await pending(ada)).map((i) => i.email)).toContain(email);
    expect((await call("GET", "/partner-programme/invitations")).statusCode).toBe(401);
  });

  it(`sends at most ${PARTNER_INVITATIONS_PER_DAY} invitations a day per creator (429), storing nothing past it`, async () => {
    const creator = await someone(ctx);
    const now = Date.now();
    await ctx.database.db.insert(partnerInvitations).values(
      Array.from({ length: PARTNER_INVITATIONS_PER_DAY - 1 }, (_, i) => ({
        creatorId: creator.id,
        email: `bulk-${i}@example.test`,
        tokenHash: hashToken(`${creator.id}-${i}`),
        expiresAt: new Date(now + DAY_MS),
        createdAt: new Date(now - DAY_MS + 3_600_000),
      })),
    );
    await invite(creator, uniqueEmail("invitee"));
    const count = async () =>
      (
        await ctx.database.db
          .select({ id: partnerInvitations.id })
          .from(partnerInvitations)
          .where(eq(partnerInvitations.creatorId, creator.id))
      ).length;
    const before = await count();
    const refused = await call(
      "POST",
      "/partner-programme/invitations",
      creator.cookie,
      { email: uniqueEmail("invitee") },
      { "accept-language": "es" },
    );
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      statusCode: 429,
      error: "RateLimitException",
      message: "Has enviado tantas invitaciones como se permite en un día. Inténtalo más tarde.",
    });
    // The oldest of the day's invitations leaves the window in about an hour.
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await count()).toBe(before);
    // Another creator is not held back by this one.
    await invite(ada, uniqueEmail("invitee"));
    // A day later the old ones no longer count.
    await ctx.database.db
      .update(partnerInvitations)
      .set({ createdAt: new Date(now - 2 * DAY_MS) })
      .where(eq(partnerInvitations.creatorId, creator.id));
    await invite(creator, uniqueEmail("invitee"));
  });
});
