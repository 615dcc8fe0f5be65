import { customerListSchema } from "@salelink/contracts";
import { expect } from "vitest";
import { send } from "./access-fixtures.ts";
import { owner, type Row, signedIn } from "./access-rows.ts";

/**
 * The creator's customers (issue 21). Every account reads its own list (empty when it sold
 * nothing); one customer, the world's buyer of the creator's link, is the creator's alone.
 */
export const customerRows: Record<string, Row> = {
  "GET /customers": { expect: signedIn(200), request: () => ({ url: "/customers" }) },
  "GET /customers/export.csv": { expect: signedIn(200), request: () => ({ url: "/customers/export.csv" }) },
  "GET /customers/:id": {
    expect: owner(200),
    prepare: async (world) => {
      const res = await send(world.ctx, "GET", "/customers", { cookie: world.creator.cookie });
      expect(res.statusCode, res.body).toBe(200);
      const first = customerListSchema.parse(res.json()).items[0];
      if (!first) throw new Error("the creator has no customer");
      return { id: first.id };
    },
    request: ({ prepared }) => ({ url: `/customers/${prepared.id}` }),
  },
};
