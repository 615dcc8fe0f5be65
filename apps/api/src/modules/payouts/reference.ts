import type { Config } from "../../config.ts";

/**
 * What the payee's bank statement shows for a payout: whose payout it is, findable in the console by
 * its id. The same text in the bank export, the provider's submission and the creator's timeline.
 */
export const payoutReference = (config: Pick<Config, "PLATFORM_NAME">, payoutId: string) =>
  `${config.PLATFORM_NAME} payout ${payoutId}`;
