import type { Locale } from "@salelink/contracts";
import { accountMessages } from "./catalogue/account.ts";
import { adminMessages } from "./catalogue/admin.ts";
import { affiliateMessages } from "./catalogue/affiliates.ts";
import { authMessages } from "./catalogue/auth.ts";
import { catalogueMessages } from "./catalogue/catalogue.ts";
import { checkoutMessages } from "./catalogue/checkout.ts";
import { customerMessages } from "./catalogue/customers.ts";
import { invoiceMessages } from "./catalogue/invoices.ts";
import { kycMessages } from "./catalogue/kyc.ts";
import { notificationMessages } from "./catalogue/notifications.ts";
import { orderMessages } from "./catalogue/orders.ts";
import { partnerMessages } from "./catalogue/partners.ts";
import { payoutMessages } from "./catalogue/payouts.ts";
import { platformMessages } from "./catalogue/platform.ts";
import { purchaseMessages } from "./catalogue/purchases.ts";
import { reportMessages } from "./catalogue/reports.ts";
import { updateMessages } from "./catalogue/updates.ts";
import { uploadMessages } from "./catalogue/uploads.ts";
import { walletMessages } from "./catalogue/wallet.ts";
import type { Catalogue } from "./types.ts";

export type { Catalogue } from "./types.ts";

/**
 * Each module's part of the catalogue, in `catalogue/<module>.ts` (the code's module folders; what
 * lib/ and plugins/ say is in `platform`). A test checks no English text is in two of them.
 */
export const moduleCatalogues: Record<string, Catalogue> = {
  platform: platformMessages,
  account: accountMessages,
  admin: adminMessages,
  affiliates: affiliateMessages,
  auth: authMessages,
  catalogue: catalogueMessages,
  checkout: checkoutMessages,
  customers: customerMessages,
  invoices: invoiceMessages,
  kyc: kycMessages,
  notifications: notificationMessages,
  orders: orderMessages,
  partners: partnerMessages,
  payouts: payoutMessages,
  purchases: purchaseMessages,
  reports: reportMessages,
  updates: updateMessages,
  uploads: uploadMessages,
  wallet: walletMessages,
};

/**
 * What the API says to people, in the two other languages, keyed by the English text written in
 * the code. A test fails when a message in the code has no entry here.
 */
export const messages: Catalogue = Object.assign({}, ...Object.values(moduleCatalogues));

/** Whether a text is one of ours (a contract's own field message), with its translations here. */
export const isOurMessage = (text: string): boolean => Object.hasOwn(messages, text);

/** The English text in `locale`, with `{name}` placeholders filled; unknown texts stay English. */
export function translate(
  locale: Locale,
  text: string,
  params: Record<string, string | number> = {},
): string {
  const entry = locale === "en" ? undefined : messages[text]?.[locale];
  return (entry ?? text).replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
