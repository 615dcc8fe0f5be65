import { eq } from "drizzle-orm";
import { customers } from "../../src/db/schema/index.ts";
import { unsubscribeToken } from "../../src/modules/updates/tokens.ts";
import type { World } from "./access-fixtures.ts";
import { open, owner, type Row, signedIn } from "./access-rows.ts";

/**
 * Updates to buyers (issue 21): each account writes to and reads its own buyers' updates; the
 * unsubscribe link needs no session (its signed token is the proof), so everyone gets the same.
 */

const update = { subject: "News", body: "A new chapter is out.", linkId: null, locale: "en" };

/** The unsubscribe token of the world's sale: the creator's customer. */
async function buyerToken(world: World): Promise<Record<string, string>> {
  const [row] = await world.ctx.database.db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.creatorId, world.creator.id));
  if (!row) throw new Error("the world's creator has no customer");
  return { token: unsubscribeToken(world.ctx.config.appSecret, row.id) };
}

export const updateRows: Record<string, Row> = {
  "GET /updates": { expect: signedIn(200), request: () => ({ url: "/updates" }) },
  "GET /updates/audience": { expect: signedIn(200), request: () => ({ url: "/updates/audience" }) },
  "POST /updates": {
    // Fresh accounts: each caller's update counts against its own day's allowance only.
    fresh: true,
    expect: signedIn(202),
    request: () => ({ url: "/updates", payload: update }),
  },
  "GET /updates/:id": {
    expect: owner(200),
    prepare: async (world) => {
      const res = await world.ctx.app.inject({
        method: "POST",
        url: "/updates",
        headers: { cookie: world.creator.cookie },
        payload: update,
      });
      if (res.statusCode !== 202) throw new Error(`update not sent: ${res.body}`);
      return { id: res.json<{ id: string }>().id };
    },
    request: ({ prepared }) => ({ url: `/updates/${prepared.id}` }),
  },
  "GET /updates/unsubscribe/:token": {
    expect: open(200),
    prepare: buyerToken,
    request: ({ prepared }) => ({ url: `/updates/unsubscribe/${prepared.token}` }),
  },
  "POST /updates/unsubscribe/:token": {
    // Idempotent: the first caller unsubscribes, the others are told the same.
    expect: open(200),
    prepare: buyerToken,
    request: ({ prepared }) => ({ url: `/updates/unsubscribe/${prepared.token}` }),
  },
};
