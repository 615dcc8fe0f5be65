import type { Config } from "../../../config.ts";
import type { JobRegistry } from "../../../jobs/index.ts";
import { pruneFinishedRuns } from "./queries.ts";
import { refreshSalesRollups, salesRollupRefreshJob, scheduleRollupRefresh } from "./service.ts";

/** The dashboard rollups' periodic refresh (decision 031; the chain is described in service.ts). */
export function registerSalesSummaryJobs(
  registry: JobRegistry,
  { config }: { config: Pick<Config, "SALES_ROLLUP_REFRESH_MS" | "SALES_ROLLUP_OVERLAP_MS"> },
): void {
  registry.register(salesRollupRefreshJob, async (tx) => {
    await refreshSalesRollups(tx, config);
    await scheduleRollupRefresh(tx, config);
    await pruneFinishedRuns(tx, salesRollupRefreshJob.kind);
  });
}
