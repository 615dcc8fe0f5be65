import { type APIRequestContext, request } from "@playwright/test";
import { expect, uniqueEmail } from "../fixtures.ts";
import { apiUrl, webUrl } from "../playwright.config.ts";

export interface Sale {
  profileId: string;
  linkId: string;
  title: string;
  orderId: string;
}

/**
 * A €20.00 link on a new profile of `seller` (signed in), bought by an anonymous buyer with the
 * sandbox's test card: €18.00 to the seller once released. Resolves when the order is paid.
 */
export async function sellOnce(
  seller: APIRequestContext,
  names: { displayName: string; handle: string; title: string; buyer: string },
): Promise<Sale> {
  const { title } = names;
  const profile = await seller.post("/profiles", {
    data: { displayName: names.displayName, handle: names.handle },
  });
  expect(profile.status()).toBe(201);
  const { id: profileId } = (await profile.json()) as { id: string };
  const link = await seller.post("/links", { data: { profileId, title, priceMinor: 2000, currency: "EUR" } });
  expect(link.status()).toBe(201);
  const { id: linkId, token } = (await link.json()) as { id: string; token: string };

  const { orderId } = await buyLink(token, uniqueEmail(names.buyer));
  return { profileId, linkId, title, orderId };
}

export interface TokenSale {
  title: string;
  linkToken: string;
  orderToken: string;
  buyerEmail: string;
}

/**
 * A €20.00 link of `seller` bought with the sandbox's test card, resolved once paid, with the tokens
 * of the link page and of the buyer's order page (the report is filed with the order's).
 */
export async function sellWithTokens(
  seller: APIRequestContext,
  profileId: string,
  title: string,
): Promise<TokenSale> {
  const link = await seller.post("/links", { data: { profileId, title, priceMinor: 2000, currency: "EUR" } });
  expect(link.status()).toBe(201);
  const { token: linkToken } = (await link.json()) as { token: string };
  const buyerEmail = uniqueEmail("ops-buyer");
  const { orderToken } = await buyLink(linkToken, buyerEmail);
  return { title, linkToken, orderToken, buyerEmail };
}

/**
 * An anonymous buyer pays for the link with the sandbox's test card; resolves once the order is
 * paid, with its id and the order page's token.
 */
export async function buyLink(
  linkToken: string,
  buyerEmail: string,
  locale = "en",
): Promise<{ orderId: string; orderToken: string }> {
  const buyer = await request.newContext({ baseURL: apiUrl, extraHTTPHeaders: { origin: webUrl } });
  try {
    const checkout = await buyer.post("/stripe/checkout", {
      data: { token: linkToken, email: buyerEmail, locale },
    });
    expect(checkout.status(), await checkout.text()).toBe(201);
    const { orderId, checkoutSecret, paymentId } = (await checkout.json()) as {
      orderId: string;
      checkoutSecret: string;
      paymentId: string;
    };
    const confirm = await buyer.post(`/sandbox/payments/${paymentId}/confirm`, {
      data: { card: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    expect(confirm.ok()).toBe(true);
    // The payment's event reaches the ledger through a job: wait until the order is paid.
    let orderToken: string | null = null;
    await expect
      .poll(
        async () => {
          const res = await buyer.get(`/checkout/${orderId}?secret=${checkoutSecret}`);
          const body = (await res.json()) as { status: string; orderToken: string | null };
          orderToken = body.orderToken;
          return body.status;
        },
        { timeout: 20_000 },
      )
      .toBe("paid");
    if (!orderToken) throw new Error("the paid order has no token");
    return { orderId, orderToken };
  } finally {
    await buyer.dispose();
  }
}
