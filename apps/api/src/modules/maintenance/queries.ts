import type { MaintenanceStatus } from "@salelink/contracts";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { maintenance } from "../../db/schema/index.ts";

export type MaintenanceRow = typeof maintenance.$inferSelect;

export async function readMaintenance(db: DbOrTx): Promise<MaintenanceRow | null> {
  const [row] = await db.select().from(maintenance).where(eq(maintenance.id, 1)).limit(1);
  return row ?? null;
}

export async function writeMaintenance(
  db: DbOrTx,
  params: { enabled: boolean; message: MaintenanceStatus["message"]; userId: string },
): Promise<MaintenanceRow> {
  const values = {
    id: 1,
    enabled: params.enabled,
    message: params.message,
    updatedAt: new Date(),
    updatedBy: params.userId,
  };
  const [row] = await db
    .insert(maintenance)
    .values(values)
    .onConflictDoUpdate({ target: maintenance.id, set: values })
    .returning();
  if (!row) throw new Error("maintenance row not written");
  return row;
}
