import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { PaymentProvider } from "../../providers/payments/types.ts";
import type { ViesProvider } from "../../providers/vies/index.ts";
import type { PartnerAttributions } from "../partners/attribution/service.ts";

export interface CheckoutDeps {
  db: Db;
  config: Config;
  payments: PaymentProvider;
  /** What attributes a checkout to a creator's partner (`via`), with its memory. */
  attributions: PartnerAttributions;
  /** Checks a business buyer's VAT number (issue 22). */
  vies: ViesProvider;
}

/** What checkout needs to know of its caller: the limits counted per client address and buyer. */
export interface CheckoutCaller {
  /** Counts one new reservation for this address and buyer; throws the 429 past their caps. */
  reserve(): Promise<void>;
  /** Throws the 429 when this address or link has had too many wrong promo codes lately. */
  promoAllowed(): Promise<void>;
  promoFailed(): Promise<void>;
}
