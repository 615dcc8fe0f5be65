import {
  type CreatorProfile,
  type MembershipResult,
  PARTNER_CODE_LENGTH,
  type PartnerList,
  type Programmes,
  type PublicProgramme,
} from "@salelink/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerMemberships, users } from "../../src/db/schema/index.ts";
import { errorOf } from "../support/accounts.ts";
import { dbKind, type TestContext, testApp } from "../support/app.ts";
import { caller, joined, type Someone, saveProgramme, shop, someone } from "./support.ts";

let ctx: TestContext;
let call: ReturnType<typeof caller>;
/** A creator with a programme by approval; a creator with an open one; a partner. */
let ada: Someone;
let adaProfile: CreatorProfile;
let cy: Someone;
let pat: Someone;

beforeAll(async () => {
  ctx = await testApp();
  call = caller(ctx);
  [ada, cy, pat] = await Promise.all([someone(ctx), someone(ctx), someone(ctx)]);
  adaProfile = (await shop(ctx, ada.cookie, "Ada Lovelace")).profile;
  await shop(ctx, cy.cookie, "Cy Twombly");
  await saveProgramme(ctx, ada.cookie, { joinMode: "approval", description: "Photo packs." });
  await saveProgramme(ctx, cy.cookie, { joinMode: "open", defaultRateBps: 2000 });
});
afterAll(() => ctx.close());

const join = (who: Someone, creatorId: string, headers: Record<string, string> = {}) =>
  call("POST", `/programmes/${creatorId}/join`, who.cookie, undefined, headers);
const partnersOf = async (creator: Someone, query = "") => {
  const res = await call("GET", `/partner-programme/partners${query}`, creator.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PartnerList>();
};

describe(`joining a creator's programme (${dbKind})`, () => {
  it("joins an open programme at once, with a code of its own; twice is a conflict", async () => {
    const partner = await someone(ctx);
    const membership = await joined(ctx, partner.cookie, cy.id);
    expect(membership.status).toBe("active");
    expect(membership.creatorId).toBe(cy.id);
    expect(membership.code).toMatch(new RegExp(`^[A-Za-z0-9_-]{${PARTNER_CODE_LENGTH}}$`));
    const again = await join(partner, cy.id);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe("You are already a partner of this programme.");
    const other = await joined(ctx, (await someone(ctx)).cookie, cy.id);
    expect(other.code).not.toBe(membership.code);
  });

  it("applies to a programme by approval; the creator approves, once", async () => {
    const membership = await joined(ctx, pat.cookie, ada.id);
    expect(membership.status).toBe("applied");
    expect((await join(pat, ada.id)).statusCode).toBe(409);
    const listed = await partnersOf(ada, "?status=applied");
    expect(listed.items.map((p) => p.id)).toContain(membership.id);
    expect(listed.items.find((p) => p.id === membership.id)).toMatchObject({
      partnerId: pat.id,
      email: pat.email,
      status: "applied",
      code: membership.code,
      decidedAt: null,
      removedAt: null,
    });

    const approve = await call("POST", `/partner-programme/partners/${membership.id}/approve`, ada.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().message).toBe("Partner approved.");
    const active = (await partnersOf(ada, "?status=active")).items.find((p) => p.id === membership.id);
    expect(active?.status).toBe("active");
    expect(active?.decidedAt).not.toBeNull();
    // Only an application is decided on.
    for (const action of ["approve", "refuse"]) {
      const res = await call("POST", `/partner-programme/partners/${membership.id}/${action}`, ada.cookie);
      expect(res.statusCode).toBe(409);
    }
    expect(errorOf(await join(pat, ada.id)).message).toBe("You are already a partner of this programme.");
  });

  it("refuses an application; the refused partner cannot re-apply by themselves", async () => {
    const partner = await someone(ctx);
    const { id } = await joined(ctx, partner.cookie, ada.id);
    const refuse = await call("POST", `/partner-programme/partners/${id}/refuse`, ada.cookie, undefined, {
      "accept-language": "fr",
    });
    expect(refuse.statusCode).toBe(200);
    expect(refuse.json().message).toBe("Candidature refusée.");
    const again = await join(partner, ada.id);
    expect(again.statusCode).toBe(403);
    expect(errorOf(again).message).toMatch(/only an invitation from them can reopen it/);
    expect((await partnersOf(ada, "?status=refused")).items.map((p) => p.id)).toContain(id);
  });

  it("removes a partner without deleting the membership; they cannot re-join by themselves", async () => {
    const partner = await someone(ctx);
    const { id, code } = await joined(ctx, partner.cookie, cy.id);
    const removed = await call("DELETE", `/partner-programme/partners/${id}`, cy.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    const [row] = await ctx.database.db
      .select()
      .from(partnerMemberships)
      .where(eq(partnerMemberships.id, id));
    expect(row).toMatchObject({ status: "removed", code });
    expect(row?.removedAt).toBeInstanceOf(Date);
    expect((await call("DELETE", `/partner-programme/partners/${id}`, cy.cookie)).statusCode).toBe(409);
    expect((await join(partner, cy.id)).statusCode).toBe(403);
    const mine = (await call("GET", "/programmes", partner.cookie)).json<Programmes>();
    expect(mine.memberships.find((m) => m.id === id)?.status).toBe("removed");
    // An application is refused, not removed.
    const applicant = await someone(ctx);
    const applied = await joined(ctx, applicant.cookie, ada.id);
    expect((await call("DELETE", `/partner-programme/partners/${applied.id}`, ada.cookie)).statusCode).toBe(
      409,
    );
  });

  it("refuses programmes by invitation, turned off or never saved (403), and one's own (400)", async () => {
    const [inviting, off, never] = await Promise.all([someone(ctx), someone(ctx), someone(ctx)]);
    await saveProgramme(ctx, inviting.cookie, { joinMode: "invitation" });
    await saveProgramme(ctx, off.cookie, { enabled: false, joinMode: "open" });
    const byInvitation = await join(pat, inviting.id);
    expect(byInvitation.statusCode).toBe(403);
    expect(errorOf(byInvitation).message).toBe("This programme takes partners by invitation only.");
    for (const creator of [off, never]) {
      const res = await join(pat, creator.id, { "accept-language": "es" });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toBe("Este programa no admite nuevos socios en este momento.");
    }
    const own = await join(cy, cy.id);
    expect(own.statusCode).toBe(400);
    expect(errorOf(own).message).toBe("You cannot join your own programme.");
    expect((await call("POST", `/programmes/${cy.id}/join`)).statusCode).toBe(401);
    expect((await call("POST", "/programmes/not-a-uuid/join", pat.cookie)).statusCode).toBe(400);
  });

  it("refuses a suspended creator's programme", async () => {
    const creator = await someone(ctx);
    await shop(ctx, creator.cookie);
    await saveProgramme(ctx, creator.cookie, { joinMode: "open" });
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, creator.id));
    expect((await join(pat, creator.id)).statusCode).toBe(403);
    const open = (await call("GET", "/programmes", pat.cookie)).json<Programmes>().open;
    expect(open.map((p) => p.creator.id)).not.toContain(creator.id);
  });
});

describe(`a creator's partners, and nobody else's (${dbKind})`, () => {
  it("lets no other account approve, refuse, remove or list a creator's memberships", async () => {
    const applicant = await someone(ctx);
    const { id } = await joined(ctx, applicant.cookie, ada.id);
    for (const [method, path] of [
      ["POST", `/partner-programme/partners/${id}/approve`],
      ["POST", `/partner-programme/partners/${id}/refuse`],
      ["DELETE", `/partner-programme/partners/${id}`],
    ] as const) {
      const stranger = await call(method, path, cy.cookie);
      expect(stranger.statusCode, `${method} ${path}`).toBe(404);
      expect(errorOf(stranger).message).toBe("This partner was not found.");
      // Not even the partner decides on their own application.
      expect((await call(method, path, applicant.cookie)).statusCode).toBe(404);
      expect((await call(method, path)).statusCode).toBe(401);
    }
    expect((await partnersOf(cy)).items.map((p) => p.id)).not.toContain(id);
    const [row] = await ctx.database.db
      .select()
      .from(partnerMemberships)
      .where(eq(partnerMemberships.id, id));
    expect(row?.status).toBe("applied");
  });

  it("pages the partners newest first by offset, filtered by status, with their figures", async () => {
    const creator = await someone(ctx);
    await saveProgramme(ctx, creator.cookie, { joinMode: "open" });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await joined(ctx, (await someone(ctx)).cookie, creator.id)).id);
    const first = await partnersOf(creator, "?limit=2");
    expect(first.items.map((p) => p.id)).toEqual([ids[4], ids[3]]);
    expect(first.total).toBe(5);
    const second = await partnersOf(creator, `?limit=2&offset=${first.nextOffset}`);
    expect(second.items.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const third = await partnersOf(creator, `?limit=2&offset=${second.nextOffset}`);
    expect(third.items.map((p) => p.id)).toEqual([ids[0]]);
    expect(third.nextOffset).toBeNull();
    expect((await partnersOf(creator, "?status=applied")).items).toEqual([]);
    expect((await partnersOf(creator, "?dir=asc&limit=1")).items.map((p) => p.id)).toEqual([ids[0]]);
    expect(first.items[0]?.stats).toEqual({
      clicks: 0,
      botClicks: 0,
      filteredClicks: 0,
      sales: 0,
      refunds: 0,
      blocked: [],
      money: [],
    });
    expect((await call("GET", "/partner-programme/partners?sort=nope", creator.cookie)).statusCode).toBe(400);
    const tooMany = await call("GET", "/partner-programme/partners?limit=101", creator.cookie);
    expect(tooMany.statusCode).toBe(400);
  });
});

describe(`the partner's programmes (${dbKind})`, () => {
  it("lists my memberships with my code and the creator's name, and programmes open to me", async () => {
    const me = await someone(ctx);
    const inviting = await someone(ctx);
    await shop(ctx, inviting.cookie);
    await saveProgramme(ctx, inviting.cookie, { joinMode: "invitation" });
    await shop(ctx, me.cookie);
    await saveProgramme(ctx, me.cookie, { joinMode: "open" });

    const before = (await call("GET", "/programmes", me.cookie)).json<Programmes>();
    expect(before.memberships).toEqual([]);
    const openIds = before.open.map((p) => p.creator.id);
    expect(openIds).toEqual(expect.arrayContaining([ada.id, cy.id]));
    // Not my own, not one by invitation.
    expect(openIds).not.toContain(me.id);
    expect(openIds).not.toContain(inviting.id);
    expect(before.open.find((p) => p.creator.id === ada.id)).toMatchObject({
      joinMode: "approval",
      description: "Photo packs.",
      creator: { displayName: "Ada Lovelace", handle: adaProfile.handle, profileId: adaProfile.id },
    });

    const atCy: MembershipResult = await joined(ctx, me.cookie, cy.id);
    const res = await call("GET", "/programmes", me.cookie);
    expect(res.statusCode).toBe(200);
    const after = res.json<Programmes>();
    expect(after.memberships).toHaveLength(1);
    expect(after.memberships[0]).toMatchObject({
      id: atCy.id,
      status: "active",
      code: atCy.code,
      programmeEnabled: true,
      defaultRateBps: 2000,
      creator: { id: cy.id, displayName: "Cy Twombly" },
    });
    expect(after.open.map((p) => p.creator.id)).not.toContain(cy.id);
    // Nobody's e-mail in it.
    expect(res.body).not.toContain(cy.email);
    expect((await call("GET", "/programmes")).statusCode).toBe(401);
  });
});

describe(`the public programme page (${dbKind})`, () => {
  it("shows an enabled programme by profile id or handle, and 404 otherwise", async () => {
    for (const key of [adaProfile.id, adaProfile.handle, adaProfile.handle.toUpperCase()]) {
      const res = await call("GET", `/public/programmes/${key}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<PublicProgramme>()).toEqual({
        creatorId: ada.id,
        enabled: true,
        joinMode: "approval",
        defaultRateBps: 1000,
        windowDays: 30,
        description: "Photo packs.",
        terms: "",
      });
    }
    const creator = await someone(ctx);
    const { profile } = await shop(ctx, creator.cookie);
    // Never saved, then saved turned off.
    expect((await call("GET", `/public/programmes/${profile.handle}`)).statusCode).toBe(404);
    await saveProgramme(ctx, creator.cookie, { enabled: false });
    const off = await call("GET", `/public/programmes/${profile.id}`, undefined, undefined, {
      "accept-language": "fr",
    });
    expect(off.statusCode).toBe(404);
    expect(errorOf(off).message).toBe("Ce programme est introuvable.");
    expect((await call("GET", "/public/programmes/nobody-here")).statusCode).toBe(404);
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ada.id));
    expect((await call("GET", `/public/programmes/${adaProfile.handle}`)).statusCode).toBe(404);
    await ctx.database.db.update(users).set({ suspendedAt: null }).where(eq(users.id, ada.id));
  });
});
