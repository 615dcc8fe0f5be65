import type { AdminPayout, PayoutProviderKind, PayoutStatus } from "@salelink/contracts";
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { payouts, users } from "../../../db/schema/index.ts";
import { identityApproved } from "../../kyc/queries.ts";
import { after, type PayoutRow, toPayout } from "../queries.ts";

/* The operators' payout queue: reads across accounts, behind the admin rule of its routes. */

async function toAdminPayouts(
  db: DbOrTx,
  rows: {
    payout: PayoutRow;
    email: string;
    onboardingCompletedAt: Date | null;
    bankAccountOnFile: boolean;
  }[],
): Promise<AdminPayout[]> {
  // The identity rule is the identity module's own: asked per payee, at most a page of them.
  const payees = [...new Set(rows.map((r) => r.payout.userId))];
  const approved = new Map(
    await Promise.all(payees.map(async (id) => [id, await identityApproved(db, id)] as const)),
  );
  return rows.map((r) => ({
    ...toPayout(r.payout),
    user: { id: r.payout.userId, email: r.email },
    identityApproved: approved.get(r.payout.userId) ?? false,
    onboardingCompleted: r.onboardingCompletedAt !== null,
    bankAccountOnFile: r.bankAccountOnFile,
    provider: r.payout.provider satisfies PayoutProviderKind,
    providerPayoutId: r.payout.providerPayoutId,
  }));
}

function adminRows(db: DbOrTx) {
  return db
    .select({
      payout: payouts,
      email: users.email,
      onboardingCompletedAt: users.onboardingCompletedAt,
      bankAccountOnFile: sql<boolean>`exists (select 1 from bank_accounts b where b.id = ${payouts.bankAccountId} and b.owner_id = ${payouts.userId})`,
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId));
}

/** The admin queue, newest first, with what an operator checks before paying. */
export async function adminPayouts(
  db: DbOrTx,
  query: { status?: PayoutStatus; cursor?: string; limit: number },
): Promise<{ items: AdminPayout[]; nextCursor: string | null }> {
  const rows = await adminRows(db)
    .where(and(query.status ? eq(payouts.status, query.status) : undefined, after(query.cursor)))
    .orderBy(desc(payouts.requestedAt), desc(payouts.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: await toAdminPayouts(db, page),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.payout.id ?? null) : null,
  };
}

export async function adminPayoutById(db: DbOrTx, id: string): Promise<AdminPayout | null> {
  const rows = await adminRows(db).where(eq(payouts.id, id));
  const [item] = await toAdminPayouts(db, rows);
  return item ?? null;
}
