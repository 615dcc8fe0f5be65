import type { MaintenanceStatus, SetMaintenanceBody } from "@salelink/contracts";
import type { Db } from "../../db/client.ts";
import { readMaintenance, writeMaintenance } from "./queries.ts";

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

  async set(body: SetMaintenanceBody, userId: string): Promise<MaintenanceStatus> {
    const current = await readMaintenance(this.db);
    const row = await writeMaintenance(this.db, {
      enabled: body.maintenance,
      message: body.message ?? current?.message ?? null,
      userId,
    });
    const status = this.toStatus(row);
    this.cached = { status, until: Date.now() + this.options.cacheMs };
    return status;
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
