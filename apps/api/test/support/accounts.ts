import { randomBytes } from "node:crypto";
import type { Locale } from "@salelink/contracts";
import { eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { Database } from "../../src/db/client.ts";
import {
  campaigns,
  identitySessions,
  mailOutbox,
  sessions,
  users,
  userTokens,
} from "../../src/db/schema/index.ts";
import { hashPassword } from "../../src/lib/passwords.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import { totpCode } from "../../src/lib/totp.ts";
import { createSession } from "../../src/modules/auth/sessions.ts";
import { listOutbox, type OutboxSummary } from "../../src/modules/mail/queries.ts";
import { type TestContext, testApp } from "./app.ts";

/** The one error format of the contracts. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errors?: Record<string, string[]>;
}

export interface MessageBody {
  message: string;
}

export interface ProfileBody {
  id: string;
  email: string;
  role: "user" | "admin";
  locale: Locale;
  emailVerified: boolean;
  onboardingCompleted: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
}

export const PASSWORD = "a-long-enough-password";
export const OTHER_PASSWORD = "another-long-password";
/** The token the sandbox bot check accepts (any non-empty one but "sandbox-fail"). */
export const HUMAN = "sandbox-pass";
export const BOT = "sandbox-fail";

/**
 * An app whose rate limits are out of the way, so a file can sign in as often as it needs; the
 * rate-limit tests build their own app with low limits.
 */
export function accountsApp(overrides: Record<string, string> = {}): Promise<TestContext> {
  return testApp({
    RATE_LIMIT_SIGNIN_MAX: "10000",
    RATE_LIMIT_SIGNUP_MAX: "10000",
    RATE_LIMIT_PASSWORD_MAX: "10000",
    RATE_LIMIT_EMAIL_MAX: "10000",
    ...overrides,
  });
}

/** A fresh address, unique across files and runs. */
export function uniqueEmail(label = "user"): string {
  return `${label}-${randomBytes(5).toString("hex")}@example.test`;
}

export const errorOf = (res: LightMyRequestResponse): ErrorBody => res.json<ErrorBody>();

export interface SignupInput {
  email: string;
  password?: string;
  locale?: Locale;
  acceptTerms?: boolean;
  turnstileToken?: string;
}

export function signUp(ctx: TestContext, input: SignupInput, ref?: string) {
  return ctx.app.inject({
    method: "POST",
    url: ref === undefined ? "/auth/signup" : `/auth/signup?ref=${encodeURIComponent(ref)}`,
    payload: {
      email: input.email,
      password: input.password ?? PASSWORD,
      acceptTerms: input.acceptTerms ?? true,
      locale: input.locale ?? "en",
      turnstileToken: input.turnstileToken ?? HUMAN,
    },
  });
}

export function signIn(ctx: TestContext, email: string, password: string = PASSWORD, code?: string) {
  return ctx.app.inject({
    method: "POST",
    url: "/auth/signin",
    payload: code === undefined ? { email, password } : { email, password, code },
  });
}

/** The `sid=...` header value of a response's session cookie, or null. */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const cookie = res.cookies.find((c) => c.name === "sid");
  return cookie?.value ? `sid=${cookie.value}` : null;
}

export async function signInCookie(
  ctx: TestContext,
  email: string,
  password: string = PASSWORD,
  code?: string,
): Promise<string> {
  const res = await signIn(ctx, email, password, code);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

export function getProfile(ctx: TestContext, cookie: string) {
  return ctx.app.inject({ method: "GET", url: "/profile", headers: { cookie } });
}

/** The account a cookie signs in as: null when its session is unknown, ended or expired (decision 021). */
export async function sessionUserId(ctx: TestContext, cookie: string): Promise<string | null> {
  const res = await getProfile(ctx, cookie);
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string } | null>()?.id ?? null;
}

/** Runs the mail jobs that are due, then answers the outbox's messages to `to`, newest first. */
export async function mailsTo(ctx: TestContext, to: string): Promise<OutboxSummary[]> {
  await ctx.app.services.jobs.worker.runDue();
  return listOutbox(ctx.database.db, { limit: 100, to });
}

/** The newest e-mail of one template sent to `to`; fails the test when there is none. */
export async function lastMail(ctx: TestContext, to: string, template: string): Promise<OutboxSummary> {
  const mail = (await mailsTo(ctx, to)).find((m) => m.template === template);
  if (!mail) throw new Error(`no ${template} e-mail to ${to}`);
  return mail;
}

/** The value of a link's query parameter in an e-mail's text, checking the link's path. */
export function tokenFromText(text: string, path: string, param: string): string {
  const urls = text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  for (const raw of urls) {
    const url = new URL(raw);
    const value = url.searchParams.get(param);
    if (value && url.pathname === path) return value;
  }
  throw new Error(`no ${path}?${param}= link in:\n${text}`);
}

export async function verificationToken(ctx: TestContext, email: string): Promise<string> {
  return tokenFromText((await lastMail(ctx, email, "verify-email")).text, "/", "emailToken");
}

export async function resetToken(ctx: TestContext, email: string): Promise<string> {
  return tokenFromText((await lastMail(ctx, email, "reset-password")).text, "/reset-password", "token");
}

export async function deletionToken(ctx: TestContext, email: string): Promise<string> {
  return tokenFromText((await lastMail(ctx, email, "delete-account")).text, "/", "deletionToken");
}

export function verifyEmail(ctx: TestContext, token: string) {
  return ctx.app.inject({ method: "POST", url: `/auth/verify/email/${token}` });
}

export interface Account {
  id: string;
  email: string;
  password: string;
}

/** Signs up through the API and follows the e-mailed verification link. */
export async function signUpVerified(
  ctx: TestContext,
  params: { email?: string; locale?: Locale; password?: string } = {},
): Promise<Account> {
  const email = params.email ?? uniqueEmail();
  const password = params.password ?? PASSWORD;
  const res = await signUp(ctx, { email, password, locale: params.locale ?? "en" });
  expect(res.statusCode, res.body).toBe(201);
  const verified = await verifyEmail(ctx, await verificationToken(ctx, email));
  expect(verified.statusCode, verified.body).toBe(200);
  return { id: await userId(ctx.database, email), email, password };
}

/** Inserts an account straight into the database (faster than the API when the flow is not tested). */
export async function insertAccount(
  database: Database,
  params: {
    email?: string;
    verified?: boolean;
    onboarded?: boolean;
    locale?: Locale;
    role?: "user" | "admin";
  } = {},
): Promise<Account> {
  const email = params.email ?? uniqueEmail();
  const [row] = await database.db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(PASSWORD),
      role: params.role ?? "user",
      locale: params.locale ?? "en",
      emailVerifiedAt: params.verified === false ? null : new Date(),
      onboardingCompletedAt: params.onboarded ? new Date() : null,
    })
    .returning({ id: users.id });
  if (!row) throw new Error("user not created");
  return { id: row.id, email, password: PASSWORD };
}

/** An account inserted behind the API's back with a session of its own: the set-up most tests start from. */
export async function accountWithSession(
  database: Database,
  params: Parameters<typeof insertAccount>[1] = {},
): Promise<Account & { cookie: string }> {
  const account = await insertAccount(database, params);
  return { ...account, cookie: await directSessionCookie(database, account.id) };
}

/** An identity check the sandbox approved (as Ada Lovelace), recorded behind the API's back. */
export async function insertApprovedIdentity(database: Database, userId: string): Promise<void> {
  await database.db.insert(identitySessions).values({
    userId,
    provider: "sandbox",
    providerSessionId: `sbx_${randomBytes(6).toString("hex")}`,
    url: "http://localhost:3000/identity/sandbox",
    status: "approved",
    firstName: "Ada",
    lastName: "Lovelace",
    decidedAt: new Date(),
  });
}

/** A session opened behind the API's back (e.g. for an account sign-in would refuse). */
export async function directSessionCookie(database: Database, userId: string): Promise<string> {
  return `sid=${await createSession(database.db, userId, 30)}`;
}

export async function userId(database: Database, email: string): Promise<string> {
  const [row] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

export async function userRow(database: Database, id: string) {
  const [row] = await database.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

export async function countUsersWithEmail(database: Database, email: string): Promise<number> {
  const rows = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return rows.length;
}

export async function sessionCount(database: Database, id: string): Promise<number> {
  return (await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id))).length;
}

/** Moves an e-mailed token's expiry into the past. */
export async function expireToken(database: Database, token: string): Promise<void> {
  const updated = await database.db
    .update(userTokens)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(userTokens.tokenHash, hashToken(token)))
    .returning({ id: userTokens.id });
  expect(updated).toHaveLength(1);
}

export async function insertCampaign(
  database: Database,
  ownerId: string,
  status: "active" | "archived" = "active",
): Promise<{ id: string; token: string }> {
  const token = `camp_${randomBytes(8).toString("hex")}`;
  const [row] = await database.db
    .insert(campaigns)
    .values({ ownerId, name: `Campaign ${token}`, token, status })
    .returning({ id: campaigns.id, token: campaigns.token });
  if (!row) throw new Error("campaign not created");
  return row;
}

export async function outboxCount(database: Database, to: string): Promise<number> {
  const rows = await database.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()));
  return rows.length;
}

/** A code from the authenticator's next time step: the current one may already be spent. */
export const nextTotpCode = (secret: string): string => totpCode(secret, Date.now() + 30_000);

/** Six digits that no step within the server's window (one step either side) accepts. */
export function wrongTotpCode(secret: string): string {
  const now = Date.now();
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => totpCode(secret, now + d * 30_000)));
  let candidate = (Number(totpCode(secret, now)) + 1) % 1_000_000;
  while (valid.has(String(candidate).padStart(6, "0"))) candidate = (candidate + 1) % 1_000_000;
  return String(candidate).padStart(6, "0");
}

export { totpCode };
