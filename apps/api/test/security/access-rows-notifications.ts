import { type Row, signedIn } from "./access-rows.ts";

/** A creator's sale notifications (issue 21): each account reads and sets its own choice. */
export const notificationRows: Record<string, Row> = {
  "GET /profile/notifications": { expect: signedIn(200), request: () => ({ url: "/profile/notifications" }) },
  "PUT /profile/notifications": {
    expect: signedIn(200),
    request: () => ({ url: "/profile/notifications", payload: { saleNotifications: "each" } }),
  },
};
