import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { words } from "../fixtures/messages.ts";
import { apiAs, expect, uniqueEmail } from "../fixtures.ts";
import { type Account, freshAccount } from "./identity-helpers.ts";
import { buyLink, sellOnce } from "./sale-helpers.ts";

/*
 * Set-up of the debts and disputes journey (issue 32), through the API: a creator whose first sale
 * was released, withdrawn and paid by the operator, and a second sale with its buyer's order token.
 * The words come from the web app's own catalogues, in the journey's language.
 */

/** The journey's two languages; the words are the web app's own (fixtures/messages.ts). */
export type Locale = "en" | "fr";

/** "10.00" or "10,00": an amount as typed in `locale`. */
export const typed = (locale: Locale, minor: number): string =>
  (minor / 100).toFixed(2).replace(".", locale === "fr" ? "," : ".");

/** The sign-in page's words in `locale`. */
export const signInWordsIn = (locale: Locale) => {
  const t = words(locale);
  return { email: t("auth.email"), password: t("auth.password"), signIn: t("auth.signIn") };
};

export const browserLocale: Record<Locale, string> = { en: "en-GB", fr: "fr-FR" };

/** A French IBAN with valid check digits (the one banks print in their examples). */
const IBAN = "FR76 3000 6000 0112 3456 7890 189";

export interface PaidOutCreator extends Account {
  profileId: string;
  /** The first sale: released, its €18.00 withdrawn and paid to the bank. */
  firstOrderId: string;
  bankAccountId: string;
}

/**
 * A creator in `locale` with a verified identity and an IBAN, whose €20.00 sale was released (the
 * refund window moved to its end), withdrawn in full and marked paid by an operator: the money left.
 */
export async function paidOutCreator(locale: Locale, stamp: string): Promise<PaidOutCreator> {
  const creator = await freshAccount(`debts-${locale}`, "individual", locale);
  const sale = await sellOnce(creator.api, {
    displayName: `Debts ${locale}`,
    handle: `dd${locale}${stamp}`,
    title: `Withdrawn pack ${stamp}`,
    buyer: "debt-buyer",
  });
  const wallet = (await (await creator.api.get("/wallet")).json()) as {
    held: { orderId: string; availableAt: string }[];
  };
  const held = wallet.held.find((h) => h.orderId === sale.orderId);
  if (!held) throw new Error("the sale is not held");
  const released = await creator.api.post("/dev/holds/release", {
    data: { asOf: held.availableAt, orderIds: [sale.orderId] },
  });
  expect(released.status()).toBe(200);

  // Verified, with an IBAN: the payouts journey does these by hand.
  const session = (await (await creator.api.post("/identity/sessions", { data: {} })).json()) as {
    id: string;
  };
  const decided = await creator.api.post(`/identity/sandbox/sessions/${session.id}/decision`, {
    data: { outcome: "approved" },
  });
  expect(decided.status()).toBe(202);
  await expect
    .poll(async () => ((await (await creator.api.get("/identity")).json()) as { status: string }).status)
    .toBe("approved");
  const bank = await creator.api.post("/profile/bank-accounts", {
    data: { holderName: "Ada Lovelace", iban: IBAN },
  });
  expect(bank.status(), await bank.text()).toBe(201);
  const { id: bankAccountId } = (await bank.json()) as { id: string };

  // Everything withdrawn, approved and paid by an operator (the e2e API pays by bank transfer).
  const payout = await creator.api.post("/profile/payout", { data: { bankAccountId } });
  expect(payout.status(), await payout.text()).toBe(201);
  const { id: payoutId, amount } = (await payout.json()) as { id: string; amount: number };
  expect(amount).toBe(1800);
  const admin = await apiAs("admin");
  try {
    for (const step of ["approve", "paid"]) {
      const res = await admin.post(`/admin/payouts/${payoutId}/${step}`, { data: {} });
      expect(res.status(), await res.text()).toBe(200);
    }
  } finally {
    await admin.dispose();
  }
  return { ...creator, profileId: sale.profileId, firstOrderId: sale.orderId, bankAccountId };
}

/** A second €20.00 link of the creator's, bought by a new buyer: the order's id and its page's token. */
export async function sellAgain(
  creator: APIRequestContext,
  profileId: string,
  title: string,
  locale: Locale,
): Promise<{ orderId: string; orderToken: string; buyerEmail: string }> {
  const link = await creator.post("/links", {
    data: { profileId, title, priceMinor: 2000, currency: "EUR" },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { token } = (await link.json()) as { token: string };
  const buyerEmail = uniqueEmail("dispute-buyer");
  return { ...(await buyLink(token, buyerEmail, locale)), buyerEmail };
}

/** A figure by its term (a `<dt>`) in `scope`: its value, the first `<dd>` after it. */
export function figure(scope: Page | Locator, term: string): Locator {
  const page = "mouse" in scope ? scope : scope.page();
  return scope
    .locator("dl > div")
    .filter({ has: page.getByRole("term").getByText(term, { exact: true }) })
    .getByRole("definition")
    .first();
}

export const successToast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast][data-type='success']").filter({ hasText: text });

/** A screenshot for a person to look at, when E2E_SCREENSHOTS names a folder (never in CI's run). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  // The cookie banner floats over the middle of a full-page picture: left out of it.
  if (dir)
    await page.screenshot({
      path: path.join(dir, `${name}.png`),
      fullPage: true,
      style: ".consent { display: none !important; }",
    });
}
