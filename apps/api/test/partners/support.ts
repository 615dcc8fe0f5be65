import { randomBytes } from "node:crypto";
import type {
  CreatorProfile,
  Link,
  MembershipResult,
  PartnerJoinMode,
  PartnerProgramme,
  PartnerProgrammeInput,
} from "@salelink/contracts";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { accountWithSession } from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";

/** Calls and set-up shared by the partner programme tests. */

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Someone {
  id: string;
  email: string;
  cookie: string;
}

export function caller(ctx: TestContext) {
  return (
    method: Method,
    url: string,
    cookie?: string,
    payload?: object,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    ctx.app.inject({
      method,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...headers },
      ...(payload ? { payload } : {}),
    });
}

export const someone = (ctx: TestContext): Promise<Someone> =>
  accountWithSession(ctx.database, { onboarded: true });

/** A creator profile and a link of `cookie`'s account. */
export async function shop(
  ctx: TestContext,
  cookie: string,
  displayName = "Ada",
): Promise<{ profile: CreatorProfile; link: Link }> {
  const call = caller(ctx);
  const handle = `h_${randomBytes(5).toString("hex")}`;
  const created = await call("POST", "/profiles", cookie, { displayName, handle });
  expect(created.statusCode, created.body).toBe(201);
  const profile = created.json<CreatorProfile>();
  const res = await call("POST", "/links", cookie, {
    profileId: profile.id,
    title: "Sunset pack",
    priceMinor: 1500,
    currency: "EUR",
  });
  expect(res.statusCode, res.body).toBe(201);
  return { profile, link: res.json<Link>() };
}

export async function saveProgramme(
  ctx: TestContext,
  cookie: string,
  body: Partial<PartnerProgrammeInput> = {},
): Promise<PartnerProgramme> {
  const res = await caller(ctx)("PUT", "/partner-programme", cookie, {
    enabled: true,
    defaultRateBps: 1000,
    windowDays: 30,
    joinMode: "approval" satisfies PartnerJoinMode,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PartnerProgramme>();
}

export async function joined(ctx: TestContext, cookie: string, creatorId: string): Promise<MembershipResult> {
  const res = await caller(ctx)("POST", `/programmes/${creatorId}/join`, cookie);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MembershipResult>();
}
