import type { Locale } from "@salelink/contracts";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { translate } from "../../i18n/messages.ts";
import { insertCampaign } from "./queries.ts";
import { reviewIbanMatches, reviewReferral } from "./self-referral/service.ts";
import { deviceValue, ibanValue, recordSignal } from "./self-referral/signals.ts";
import { newCampaignToken } from "./service.ts";

/*
 * What the affiliate programme does when other modules change an account, inside their transaction:
 * a new account gets its first campaign (a write, so reading the campaigns never creates one) and
 * its sign-up device signal; a new payout IBAN is a signal too. Each may flag a self-referral.
 */

/** Called by the sign-up, in its transaction, once the account row exists. */
export async function affiliateSignup(
  tx: DbOrTx,
  config: Config,
  account: { id: string; locale: Locale; ip: string; userAgent: string },
): Promise<void> {
  await insertCampaign(tx, {
    ownerId: account.id,
    name: translate(account.locale, "My link"),
    token: newCampaignToken(),
  });
  await recordSignal(tx, config, account.id, "signup_device", deviceValue(account.ip, account.userAgent));
  await reviewReferral(tx, account.id);
}

/** Called when an account adds a payout bank account, in the same transaction. */
export async function affiliateIbanAdded(
  tx: DbOrTx,
  config: Config,
  userId: string,
  iban: string,
): Promise<void> {
  await recordSignal(tx, config, userId, "iban", ibanValue(iban));
  await reviewIbanMatches(tx, userId);
}
