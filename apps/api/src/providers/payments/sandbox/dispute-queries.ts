import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { orders, sandboxDisputes, sandboxPayments } from "../../../db/schema/index.ts";

/* The sandbox card issuer's own store of disputes (issue 32), as Stripe keeps its dispute objects. */

export type SandboxDisputeRow = typeof sandboxDisputes.$inferSelect;

export async function insertSandboxDispute(
  db: DbOrTx,
  values: typeof sandboxDisputes.$inferInsert,
): Promise<SandboxDisputeRow> {
  const [row] = await db.insert(sandboxDisputes).values(values).returning();
  if (!row) throw new Error("sandbox dispute not inserted");
  return row;
}

export async function lockSandboxDispute(db: DbOrTx, id: string): Promise<SandboxDisputeRow | null> {
  const [row] = await db.select().from(sandboxDisputes).where(eq(sandboxDisputes.id, id)).for("update");
  return row ?? null;
}

export async function updateSandboxDispute(
  db: DbOrTx,
  id: string,
  values: Partial<typeof sandboxDisputes.$inferInsert>,
): Promise<SandboxDisputeRow> {
  const [row] = await db.update(sandboxDisputes).set(values).where(eq(sandboxDisputes.id, id)).returning();
  if (!row) throw new Error("sandbox dispute lost");
  return row;
}

/** Whether the payment already has a dispute (a card's payment is disputed once). */
export async function sandboxDisputeOfPayment(db: DbOrTx, paymentId: string) {
  const [row] = await db
    .select({ id: sandboxDisputes.id })
    .from(sandboxDisputes)
    .where(eq(sandboxDisputes.paymentId, paymentId))
    .limit(1);
  return row ?? null;
}

/** A paid sandbox payment, found by its order's token hash (the buyer's order page) or its id. */
export async function succeededSandboxPayment(
  db: DbOrTx,
  by: { accessTokenHash: string } | { paymentId: string },
) {
  const [row] = await db
    .select({
      id: sandboxPayments.id,
      orderId: sandboxPayments.orderId,
      amountMinor: sandboxPayments.amountMinor,
      currency: sandboxPayments.currency,
    })
    .from(sandboxPayments)
    .innerJoin(orders, eq(orders.id, sandboxPayments.orderId))
    .where(
      and(
        // A payment refunded in part can still be disputed; a sale refunded in whole has nothing left.
        inArray(sandboxPayments.status, ["succeeded", "refunded"]),
        eq(orders.status, "paid"),
        "paymentId" in by
          ? eq(sandboxPayments.id, by.paymentId)
          : eq(orders.accessTokenHash, by.accessTokenHash),
      ),
    );
  return row ?? null;
}
