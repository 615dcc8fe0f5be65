import { uniqueEmail } from "../support/accounts.ts";
import { type Expect, open, type Row, signedIn } from "./access-rows.ts";

/**
 * The buyer's library (issue 21). The world's buyer paid for the creator's link with its account's
 * address: its session reads that order, nobody else's does.
 */
export const purchaseRows: Record<string, Row> = {
  "POST /purchases/link": {
    // The same answer for everyone, whatever the address.
    expect: open(202),
    request: () => ({ url: "/purchases/link", payload: { email: uniqueEmail("library"), locale: "en" } }),
  },
  "POST /purchases/open/:token": {
    // A link nobody was sent: nobody opens anything with it.
    expect: open(404),
    request: () => ({ url: `/purchases/open/${"a".repeat(43)}` }),
  },
  "GET /purchases/library": {
    // No access header: the library is closed to everyone, sessions included.
    expect: open(401),
    request: () => ({ url: "/purchases/library" }),
  },
  "GET /purchases": { expect: signedIn(200), request: () => ({ url: "/purchases" }) },
  "POST /purchases/library/orders/:orderToken/receipt": {
    expect: { anonymous: 401, buyer: 202, creator: 404, other: 404, admin: 404 } satisfies Expect,
    request: ({ world }) => ({ url: `/purchases/library/orders/${world.creator.sale.orderToken}/receipt` }),
  },
};
