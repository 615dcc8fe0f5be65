/*
 * The paying tab keeps each checkout's secret in sessionStorage: with the order id, it is what lets
 * the success and error pages read the outcome (GET /checkout/:orderId?secret=). Nothing else does.
 */
const LAST_KEY = "salelink.checkout";
const keyOf = (orderId: string) => `salelink.checkout.${orderId}`;

export interface StoredCheckout {
  orderId: string;
  checkoutSecret: string;
}

export function rememberCheckout(checkout: StoredCheckout): void {
  try {
    sessionStorage.setItem(keyOf(checkout.orderId), checkout.checkoutSecret);
    sessionStorage.setItem(LAST_KEY, JSON.stringify(checkout));
  } catch {
    // Storage refused (private mode quotas): the result page then explains what it cannot show.
  }
}

/** The checkout of `orderId`, or the tab's latest one when the URL names none. */
export function recallCheckout(orderId: string | null): StoredCheckout | null {
  try {
    if (orderId) {
      const secret = sessionStorage.getItem(keyOf(orderId));
      return secret ? { orderId, checkoutSecret: secret } : null;
    }
    const last: unknown = JSON.parse(sessionStorage.getItem(LAST_KEY) ?? "null");
    if (
      last &&
      typeof last === "object" &&
      "orderId" in last &&
      "checkoutSecret" in last &&
      typeof last.orderId === "string" &&
      typeof last.checkoutSecret === "string"
    ) {
      return { orderId: last.orderId, checkoutSecret: last.checkoutSecret };
    }
  } catch {
    // Unreadable storage is the same as an empty one.
  }
  return null;
}

/**
 * Gives a checkout's reservation back as the buyer leaves the page (issue 16): a unit of a limited
 * stock is free again at once instead of at the end of the reservation. A beacon survives the page
 * closing; the checkout's own secret authorises it, so nobody else can cancel someone's checkout.
 */
export function releaseCheckout(apiUrl: string, checkout: StoredCheckout): void {
  const url = `${apiUrl}/checkout/${encodeURIComponent(checkout.orderId)}/cancel?secret=${encodeURIComponent(checkout.checkoutSecret)}`;
  try {
    if (navigator.sendBeacon?.(url)) return;
  } catch {
    // A browser that refuses beacons: the request below, kept alive past the page.
  }
  void fetch(url, { method: "POST", keepalive: true, mode: "no-cors" }).catch(() => undefined);
}
