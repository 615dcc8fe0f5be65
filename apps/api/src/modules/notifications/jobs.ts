import type { Config } from "../../config.ts";
import type { JobRegistry } from "../../jobs/index.ts";
import { saleNotificationJob, salesDigestJob, sendSaleNotification, sendSalesDigests } from "./service.ts";

/** A creator's sale e-mails: one per window of sales, and the daily digest (issue 21). */
export function registerNotificationJobs(
  registry: JobRegistry,
  { config }: { config: Pick<Config, "WEB_ORIGIN" | "SALES_DIGEST_HOUR_UTC"> },
): void {
  registry.register(saleNotificationJob, (tx, payload) => sendSaleNotification(tx, config, payload));
  registry.register(salesDigestJob, async (tx, payload) => {
    await sendSalesDigests(tx, config, payload);
  });
}
