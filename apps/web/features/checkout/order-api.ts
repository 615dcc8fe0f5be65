import "server-only";
import { orderTokenSchema, orderViewSchema } from "@salelink/contracts/checkout";
import { notFound } from "next/navigation";
import { cache } from "react";
import { serverEnv } from "@/lib/server-env.ts";

/**
 * GET /orders/:token, never cached: the file URLs inside are signed for a few minutes only. A
 * malformed or unknown token is the page's 404.
 */
export const getOrder = cache(async (token: string) => {
  if (!orderTokenSchema.safeParse(token).success) notFound();
  const res = await fetch(`${serverEnv.apiInternalUrl}/orders/${encodeURIComponent(token)}`, {
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  if (res.status === 404) notFound();
  if (!res.ok) throw new Error(`GET /orders: ${res.status}`);
  return orderViewSchema.parse(await res.json());
});
