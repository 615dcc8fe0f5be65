import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type BankAccount,
  bankAccountSchema,
  type Campaign,
  type CheckoutResponse,
  type CreatorProfile,
  campaignSchema,
  checkoutResponseSchema,
  checkoutStatusSchema,
  creatorProfileSchema,
  identitySessionStartSchema,
  type Link,
  linkSchema,
  orderViewSchema,
  type PromoCode,
  promoCodeSchema,
  type UploadedFile,
  uploadedFileSchema,
} from "@salelink/contracts";
import { desc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { z } from "zod";
import { mailOutbox, reports, users } from "../../src/db/schema/index.ts";
import { hashPassword } from "../../src/lib/passwords.ts";
import { createSession } from "../../src/modules/auth/sessions.ts";
import { accountsApp, HUMAN, PASSWORD, uniqueEmail } from "../support/accounts.ts";
import type { TestContext } from "../support/app.ts";
import { checkoutHelpers } from "../support/checkout.ts";
import { multipart } from "../support/uploads.ts";

/*
 * Realistic fixtures for the access matrix and the fuzzer, built through the API as clients build
 * them: two creators each with a profile, uploads, a link that sold, a released balance, a bank
 * account, an approved identity, a campaign, a promo code; a buyer holding an order token; an admin.
 */

export const PNG = readFileSync(path.resolve(import.meta.dirname, "../fixtures/files/photo.png"));
export const IBAN = "DE89370400440532013000";

export type Caller = "anonymous" | "buyer" | "creator" | "other" | "admin";
export const callers: readonly Caller[] = ["anonymous", "buyer", "creator", "other", "admin"];

export interface Party {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

export interface Creator extends Party {
  profile: CreatorProfile;
  /** The sold file (an image: it has a blurred preview) and the link's cover. */
  content: UploadedFile;
  cover: UploadedFile;
  link: Link;
  sale: CheckoutResponse & { orderToken: string };
  bank: BankAccount;
  identitySessionId: string;
  campaign: Campaign;
  promo: PromoCode;
}

export interface World {
  ctx: TestContext;
  creator: Creator;
  other: Creator;
  buyer: Party;
  admin: Party;
  reportId: string;
  mailId: string;
  /** A signed URL of the local storage, from the buyer's order page. */
  fileUrl: string;
  /** The sold file's public blurred preview. */
  previewUrl: string;
  uploadsDir: string;
  close(): Promise<void>;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One call through the app, as `cookie` when given. */
export function send(
  ctx: TestContext,
  method: Method,
  url: string,
  options: {
    cookie?: string | undefined;
    payload?: object | string | Buffer;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
}

/** Calls, checks the status, answers the JSON body parsed with its contract's schema. */
async function ok<T>(
  ctx: TestContext,
  method: Method,
  url: string,
  cookie: string | undefined,
  payload: object | undefined,
  schema: z.ZodType<T>,
): Promise<T> {
  const res = await send(ctx, method, url, { cookie, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return schema.parse(res.json());
}

/** Calls, checks the status; the answer is not needed. */
async function done(
  ctx: TestContext,
  method: Method,
  url: string,
  cookie: string | undefined,
  payload?: object,
) {
  const res = await send(ctx, method, url, { cookie, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
}

/** One argon2 hash for every fixture account: hashing is the slow part of making one. */
let passwordHash: Promise<string> | undefined;

/** An account inserted straight into the database, with a session of its own. */
export async function newParty(
  ctx: TestContext,
  options: { role?: "user" | "admin"; onboarded?: boolean; verified?: boolean } = {},
): Promise<Party> {
  passwordHash ??= hashPassword(PASSWORD);
  const email = uniqueEmail("access");
  const [row] = await ctx.database.db
    .insert(users)
    .values({
      email,
      passwordHash: await passwordHash,
      role: options.role ?? "user",
      emailVerifiedAt: options.verified === false ? null : new Date(),
      onboardingCompletedAt: options.onboarded === false ? null : new Date(),
    })
    .returning({ id: users.id });
  if (!row) throw new Error("account not created");
  return { id: row.id, email, password: PASSWORD, cookie: await newSession(ctx, row.id) };
}

export const newSession = async (ctx: TestContext, userId: string) =>
  `sid=${await createSession(ctx.database.db, userId, 30)}`;

export async function upload(
  ctx: TestContext,
  cookie: string,
  use: "content" | "cover" | "avatar",
): Promise<UploadedFile> {
  const { body, contentType } = multipart([{ filename: "photo.png", contentType: "image/png", data: PNG }]);
  const res = await send(ctx, "POST", `/upload?use=${use}`, {
    cookie,
    payload: body,
    headers: { "content-type": contentType },
  });
  expect(res.statusCode, res.body).toBe(201);
  return uploadedFileSchema.parse(res.json());
}

/** A creator set up end to end, whose link `buyerEmail` bought. */
export async function newCreator(ctx: TestContext, buyerEmail: string): Promise<Creator> {
  const party = await newParty(ctx);
  const { cookie } = party;
  const shop = checkoutHelpers(() => ctx);
  const [content, cover] = await Promise.all([upload(ctx, cookie, "content"), upload(ctx, cookie, "cover")]);
  const handle = `h_${randomBytes(5).toString("hex")}`;
  const profile = await ok(
    ctx,
    "POST",
    "/profiles",
    cookie,
    { displayName: "Ada", handle },
    creatorProfileSchema,
  );
  const linkBody = {
    profileId: profile.id,
    title: "Sunset pack",
    priceMinor: 5000,
    currency: "EUR",
    fileId: content.id,
    coverFileId: cover.id,
  };
  const link = await ok(ctx, "POST", "/links", cookie, linkBody, linkSchema);
  await done(ctx, "PUT", `/profiles/${profile.id}/portfolio`, cookie, { linkIds: [link.id] });
  const started = checkoutResponseSchema.parse(
    (await shop.checkout(link.token, { email: buyerEmail })).json(),
  );
  await shop.pay(started);
  const statusUrl = `/checkout/${started.orderId}?secret=${started.checkoutSecret}`;
  const status = await ok(ctx, "GET", statusUrl, undefined, undefined, checkoutStatusSchema);
  if (!status.orderToken) throw new Error("order not paid");
  // The hold is over a month from now: the sale's net becomes available to withdraw.
  const asOf = new Date(Date.now() + 40 * 86_400_000).toISOString();
  await done(ctx, "POST", "/dev/holds/release", undefined, { asOf, orderIds: [started.orderId] });
  const bank = await ok(ctx, "POST", "/profile/bank-accounts", cookie, BANK_BODY, bankAccountSchema);
  const identitySessionId = await approvedIdentity(ctx, cookie);
  const campaign = await ok(ctx, "POST", "/campaigns", cookie, { name: "Spring" }, campaignSchema);
  const promoBody = { kind: "percent", value: 10, code: promoCode(), linkIds: [link.id] };
  const promo = await ok(ctx, "POST", "/promo-codes", cookie, promoBody, promoCodeSchema);
  return {
    ...party,
    profile,
    content,
    cover,
    link,
    sale: { ...started, orderToken: status.orderToken },
    bank,
    identitySessionId,
    campaign,
    promo,
  };
}

/** Starts a sandbox identity check; answers its id, undecided. */
export async function identitySession(ctx: TestContext, cookie: string): Promise<string> {
  const names = { givenName: "Ada", lastName: "Lovelace" };
  return (await ok(ctx, "POST", "/identity/sessions", cookie, names, identitySessionStartSchema)).id;
}

/** An identity check taken and approved through the sandbox, as a person does on its page. */
export async function approvedIdentity(ctx: TestContext, cookie: string): Promise<string> {
  const id = await identitySession(ctx, cookie);
  await done(ctx, "POST", `/identity/sandbox/sessions/${id}/decision`, cookie, { outcome: "approved" });
  await ctx.app.services.jobs.worker.runDue();
  return id;
}

export async function buildWorld(): Promise<World> {
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), "salelink-access-"));
  const ctx = await accountsApp({ UPLOADS_DIR: uploadsDir });
  const [buyer, admin] = await Promise.all([newParty(ctx), newParty(ctx, { role: "admin" })]);
  const creator = await newCreator(ctx, buyer.email);
  const other = await newCreator(ctx, uniqueEmail("other-buyer"));
  await done(ctx, "POST", "/report", undefined, {
    token: creator.sale.orderToken,
    reason: "not-received",
    message: "The file never arrived in my inbox.",
  });
  const [report] = await ctx.database.db
    .select({ id: reports.id })
    .from(reports)
    .orderBy(desc(reports.createdAt))
    .limit(1);
  const [mail] = await ctx.database.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.to, buyer.email))
    .limit(1);
  const order = await ok(
    ctx,
    "GET",
    `/orders/${creator.sale.orderToken}`,
    undefined,
    undefined,
    orderViewSchema,
  );
  const fileUrl = new URL(order.files[0]?.downloadUrl ?? "http://missing/");
  if (!report || !mail || !creator.link.previewUrl) throw new Error("fixture incomplete");
  return {
    ctx,
    creator,
    other,
    buyer,
    admin,
    reportId: report.id,
    mailId: mail.id,
    fileUrl: `${fileUrl.pathname}${fileUrl.search}`,
    previewUrl: creator.link.previewUrl,
    uploadsDir,
    async close() {
      await ctx.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

export const BANK_BODY = { holderName: "Ada Lovelace", iban: IBAN };
export const promoCode = () => `SAVE${randomBytes(3).toString("hex").toUpperCase()}`;
export { HUMAN };
