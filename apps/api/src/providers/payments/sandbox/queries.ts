import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.ts";
import { sandboxPayments } from "../../../db/schema/index.ts";

export type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;
export type SandboxPaymentStatus = SandboxPaymentRow["status"];

/** Records a new payment; null when one already exists under this idempotency key. */
export async function insertSandboxPayment(
  db: DbOrTx,
  params: Pick<SandboxPaymentRow, "id" | "orderId" | "amountMinor" | "currency" | "idempotencyKey">,
): Promise<{ id: string } | null> {
  const [created] = await db
    .insert(sandboxPayments)
    .values(params)
    .onConflictDoNothing({ target: sandboxPayments.idempotencyKey })
    .returning({ id: sandboxPayments.id });
  return created ?? null;
}

export async function sandboxPaymentIdByKey(db: DbOrTx, idempotencyKey: string): Promise<string | null> {
  const [existing] = await db
    .select({ id: sandboxPayments.id })
    .from(sandboxPayments)
    .where(eq(sandboxPayments.idempotencyKey, idempotencyKey));
  return existing?.id ?? null;
}

export async function sandboxPaymentById(db: DbOrTx, id: string): Promise<SandboxPaymentRow | null> {
  const [payment] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  return payment ?? null;
}

/** Sets a payment's status; null when there is no such payment. */
export async function setSandboxPaymentStatus(
  db: DbOrTx,
  id: string,
  status: SandboxPaymentStatus,
): Promise<SandboxPaymentRow | null> {
  const [payment] = await db
    .update(sandboxPayments)
    .set({ status })
    .where(eq(sandboxPayments.id, id))
    .returning();
  return payment ?? null;
}

/** The amount to charge changed before the charge (VAT added for another country, issue 22). */
export async function setSandboxPaymentAmount(db: DbOrTx, id: string, amountMinor: number): Promise<void> {
  await db.update(sandboxPayments).set({ amountMinor }).where(eq(sandboxPayments.id, id));
}
