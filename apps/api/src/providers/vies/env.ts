import { z } from "zod";

/** The VIES variables, parsed beside the main schema in config.ts. */
export const viesEnvSchema = z.object({
  /** The sandbox is the default: a fresh install checks VAT numbers without calling the Commission. */
  VIES_PROVIDER: z.enum(["sandbox", "vies"]).default("sandbox"),
  /** The VIES REST API's base (…/check-vat-number is appended); a local fake in tests. */
  VIES_API_URL: z
    .url({ protocol: /^https?$/ })
    .default("https://ec.europa.eu/taxation_customs/vies/rest-api"),
  /** Bounds one check, body included: VIES is often slow, and a buyer is waiting at checkout. */
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
});

export type ViesEnv = z.output<typeof viesEnvSchema>;
