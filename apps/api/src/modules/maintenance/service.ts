import type { MaintenanceStatus, SetMaintenanceBody } from "@salelink/contracts";
import type { Db, Tx } from "../../db/client.ts";
import { audit } from "../audit/queries.ts";
import { readMaintenance, writeMaintenance } from "./queries.ts";

/** The audit log's reason when the admin gives none. */
const defaultReason = {
  "maintenance.on": "Maintenance switched on",
  "maintenance.off": "Maintenance switched off",
  "maintenance.message": "Maintenance message changed",
} as const;

/**
 * The maintenance switch, answered from memory for a couple of seconds so that every visitor can
 * poll it without a database read per request; other instances see a switch within that time.
 */
export class MaintenanceService {
  private cached: { status: MaintenanceStatus; until: number } | null = null;
  private loading: Promise<MaintenanceStatus> | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: { cacheMs: number; recheckMs: number },
  ) {}

  async status(): Promise<MaintenanceStatus> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.status;
    // Concurrent callers share one database read.
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Switches maintenance; `alongside` runs in the same transaction (the admin's audit entry), so the
   * switch and its record are written together or not at all.
   */
  async set(
    body: SetMaintenanceBody,
    userId: string,
    alongside?: (tx: Tx, change: { wasOn: boolean; status: MaintenanceStatus }) => Promise<void>,
  ): Promise<MaintenanceStatus> {
    const status = await this.db.transaction(async (tx) => {
      const current = await readMaintenance(tx);
      const row = await writeMaintenance(tx, {
        enabled: body.maintenance,
        message: body.message ?? current?.message ?? null,
        userId,
      });
      const status = this.toStatus(row);
      await alongside?.(tx, { wasOn: current?.enabled ?? false, status });
      return status;
    });
    this.cached = { status, until: Date.now() + this.options.cacheMs };
    return status;
  }

  /** An admin's switch, with its entry in the audit log (on, off, or only the message changed). */
  switchByAdmin(body: SetMaintenanceBody, adminId: string): Promise<MaintenanceStatus> {
    return this.set(body, adminId, async (tx, { wasOn, status }) => {
      const action =
        status.maintenance === wasOn
          ? "maintenance.message"
          : status.maintenance
            ? "maintenance.on"
            : "maintenance.off";
      await audit(tx, {
        actorId: adminId,
        action,
        targetType: "maintenance",
        targetId: "platform",
        reason: body.reason ?? defaultReason[action],
        details: { maintenance: status.maintenance },
      });
    });
  }

  private async load(): Promise<MaintenanceStatus> {
    const status = this.toStatus(await readMaintenance(this.db));
    this.cached = { status, until: Date.now() + this.options.cacheMs };
    return status;
  }

  private toStatus(row: Awaited<ReturnType<typeof readMaintenance>>): MaintenanceStatus {
    return {
      maintenance: row?.enabled ?? false,
      cooldown: this.options.recheckMs,
      lastUpdated: row?.updatedAt?.toISOString() ?? null,
      message: row?.message ?? null,
    };
  }
}
