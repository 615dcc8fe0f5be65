import {
  membershipResultSchema,
  type PartnerJoinMode,
  partnerInvitationSchema,
  partnerProgrammeSchema,
} from "@salelink/contracts";
import { expect } from "vitest";
import { mailsTo, uniqueEmail } from "../support/accounts.ts";
import { newParty, send, type World } from "./access-fixtures.ts";
import { type Expect, open, owner, type Row, signedIn } from "./access-rows.ts";

/** Creator partner programmes (issue 20): the creator's programme, the partner's side, the public read. */

/** Turns `cookie`'s programme on in `joinMode`. */
async function programmeOn(world: World, cookie: string, joinMode: PartnerJoinMode) {
  const res = await send(world.ctx, "PUT", "/partner-programme", {
    cookie,
    payload: { enabled: true, defaultRateBps: 1500, windowDays: 30, joinMode },
  });
  expect(res.statusCode, res.body).toBe(200);
  partnerProgrammeSchema.parse(res.json());
}

/** An application of a fresh account to the shared creator's programme (by approval). */
async function freshApplication(world: World): Promise<string> {
  await programmeOn(world, world.creator.cookie, "approval");
  const partner = await newParty(world.ctx);
  const res = await send(world.ctx, "POST", `/programmes/${world.creator.id}/join`, {
    cookie: partner.cookie,
  });
  expect(res.statusCode, res.body).toBe(201);
  return membershipResultSchema.parse(res.json()).id;
}

/** An active partner of the shared creator's programme. */
async function freshPartner(world: World): Promise<string> {
  const id = await freshApplication(world);
  const res = await send(world.ctx, "POST", `/partner-programme/partners/${id}/approve`, {
    cookie: world.creator.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

/** An invitation into the shared creator's programme: its token, read from the e-mail. */
async function freshInvitationToken(world: World): Promise<string> {
  await programmeOn(world, world.creator.cookie, "invitation");
  const email = uniqueEmail("invitee");
  const res = await send(world.ctx, "POST", "/partner-programme/invitations", {
    cookie: world.creator.cookie,
    payload: { email },
  });
  expect(res.statusCode, res.body).toBe(201);
  partnerInvitationSchema.parse(res.json());
  const [mail] = await mailsTo(world.ctx, email);
  const token = /\/programmes\/join\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error(`no invitation link in: ${mail?.text}`);
  return token;
}

export const partnerRows: Record<string, Row> = {
  "GET /partner-programme": { expect: signedIn(200), request: () => ({ url: "/partner-programme" }) },
  "PUT /partner-programme": {
    // A rate on the creator's link: nobody else may set one on it.
    expect: { anonymous: 401, buyer: 400, other: 400, admin: 400, creator: 200 } satisfies Expect,
    request: ({ world }) => ({
      url: "/partner-programme",
      payload: {
        enabled: true,
        defaultRateBps: 1000,
        windowDays: 30,
        joinMode: "approval",
        description: "Share my packs.",
        linkRates: [{ linkId: world.creator.link.id, rateBps: 2000 }],
      },
    }),
  },
  "GET /partner-programme/partners": {
    expect: signedIn(200),
    request: () => ({ url: "/partner-programme/partners?status=active" }),
  },
  "POST /partner-programme/partners/:membershipId/approve": {
    expect: owner(200),
    prepare: async (world) => ({ id: await freshApplication(world) }),
    request: ({ prepared }) => ({ url: `/partner-programme/partners/${prepared.id}/approve` }),
  },
  "POST /partner-programme/partners/:membershipId/refuse": {
    expect: owner(200),
    prepare: async (world) => ({ id: await freshApplication(world) }),
    request: ({ prepared }) => ({ url: `/partner-programme/partners/${prepared.id}/refuse` }),
  },
  "DELETE /partner-programme/partners/:membershipId": {
    expect: owner(200),
    prepare: async (world) => ({ id: await freshPartner(world) }),
    request: ({ prepared }) => ({ url: `/partner-programme/partners/${prepared.id}` }),
  },
  "POST /partner-programme/invitations": {
    // Each account invites into its own programme.
    expect: signedIn(201),
    request: () => ({ url: "/partner-programme/invitations", payload: { email: uniqueEmail("invitee") } }),
  },
  "GET /partner-programme/invitations": {
    expect: signedIn(200),
    request: () => ({ url: "/partner-programme/invitations" }),
  },
  "DELETE /partner-programme/invitations/:invitationId": {
    expect: owner(200),
    prepare: async (world) => {
      const res = await send(world.ctx, "POST", "/partner-programme/invitations", {
        cookie: world.creator.cookie,
        payload: { email: uniqueEmail("invitee") },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { id: partnerInvitationSchema.parse(res.json()).id };
    },
    request: ({ prepared }) => ({ url: `/partner-programme/invitations/${prepared.id}` }),
  },
  "GET /programmes": { expect: signedIn(200), request: () => ({ url: "/programmes" }) },
  "POST /programmes/:creatorId/join": {
    // An open programme of its own account: everyone joins it but its owner.
    expect: { anonymous: 401, buyer: 201, other: 201, admin: 201, creator: 400 } satisfies Expect,
    prepare: async (world) => {
      const programmeOwner = await newParty(world.ctx);
      await programmeOn(world, programmeOwner.cookie, "open");
      return { creatorId: programmeOwner.id, ownerCookie: programmeOwner.cookie };
    },
    request: ({ prepared }) => ({ url: `/programmes/${prepared.creatorId}/join` }),
  },
  "GET /programmes/invitations/:token": {
    // The link is the capability: whoever holds it reads what it offers, signed in or not.
    expect: open(200),
    prepare: async (world) => ({ token: await freshInvitationToken(world) }),
    request: ({ prepared }) => ({ url: `/programmes/invitations/${prepared.token}` }),
  },
  "POST /programmes/invitations/:token/accept": {
    // The first account to use the link joins; the link is then spent for everyone.
    expect: { anonymous: 401, buyer: 200, other: 404, admin: 404, creator: 404 } satisfies Expect,
    prepare: async (world) => ({ token: await freshInvitationToken(world) }),
    request: ({ prepared }) => ({ url: `/programmes/invitations/${prepared.token}/accept` }),
  },
  "GET /programmes/memberships/:membershipId": {
    // The shared creator's own membership of someone's open programme: nobody else reads it.
    expect: owner(200),
    prepare: async (world) => {
      const programmeOwner = await newParty(world.ctx);
      await programmeOn(world, programmeOwner.cookie, "open");
      const res = await send(world.ctx, "POST", `/programmes/${programmeOwner.id}/join`, {
        cookie: world.creator.cookie,
      });
      expect(res.statusCode, res.body).toBe(201);
      return { id: membershipResultSchema.parse(res.json()).id };
    },
    request: ({ prepared }) => ({ url: `/programmes/memberships/${prepared.id}?days=7` }),
  },
  // Nobody here has a partner commission past its hold: each account's own claim finds nothing.
  "POST /programmes/claim": { expect: signedIn(409), request: () => ({ url: "/programmes/claim" }) },
  "PATCH /programmes/clicks/:code": {
    // Counted or not, the same empty answer for everyone (a bogus code tells nothing).
    expect: open(204),
    request: () => ({ url: "/programmes/clicks/AbCd1234" }),
  },
  "GET /public/programmes/:profileIdOrHandle": {
    expect: open(200),
    prepare: async (world) => {
      await programmeOn(world, world.creator.cookie, "approval");
      return {};
    },
    request: ({ world }) => ({ url: `/public/programmes/${world.creator.profile.handle}` }),
  },
};
