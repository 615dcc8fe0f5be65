import { describe, expect, it } from "vitest";
import { handleRevalidate } from "../features/buyer/revalidate-handler.ts";

const SECRET = "s3cret-0123456789abcdef";

function post(body: unknown, authorization?: string): Request {
  return new Request("http://web.test/api/revalidate", {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function call(request: Request, secret = SECRET) {
  const tags: string[] = [];
  const res = await handleRevalidate(request, { secret, revalidate: (tag) => tags.push(tag) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, tags };
}

describe("POST /api/revalidate", () => {
  const valid = {
    tags: ["link:AbCdEfGhIjKlMnOpQrStUv", "creator:0b7c5a0e-1111-4222-8333-444455556666", "creator:jane_doe"],
  };

  it("revalidates every tag with the right secret", async () => {
    const { status, body, tags } = await call(post(valid, `Bearer ${SECRET}`));
    expect(status).toBe(200);
    expect(body).toEqual({ revalidated: 3 });
    expect(tags).toEqual(valid.tags);
  });

  it("counts a repeated tag once", async () => {
    const { body, tags } = await call(post({ tags: ["link:abc", "link:abc"] }, `Bearer ${SECRET}`));
    expect(body).toEqual({ revalidated: 1 });
    expect(tags).toEqual(["link:abc"]);
  });

  it.each([
    ["no header", undefined],
    ["a wrong secret", "Bearer nope"],
    ["a longer secret", `Bearer ${SECRET}x`],
    ["another scheme", `Basic ${SECRET}`],
    ["an empty bearer", "Bearer "],
  ])("answers 401 to %s, touching nothing", async (_, authorization) => {
    const { status, body, tags } = await call(post(valid, authorization));
    expect(status).toBe(401);
    expect(body.error).toBe("UnauthorizedException");
    expect(tags).toEqual([]);
  });

  it("answers 503 when no secret is configured, even to an empty bearer", async () => {
    const { status, tags } = await call(post(valid, "Bearer "), "");
    expect(status).toBe(503);
    expect(tags).toEqual([]);
  });

  it.each([
    ["not JSON", "{"],
    ["no tags", {}],
    ["an empty list", { tags: [] }],
    ["another prefix", { tags: ["page:/v/abc"] }],
    ["a path in a tag", { tags: ["link:../x"] }],
    ["a bare prefix", { tags: ["link:"] }],
    ["more than 500 tags", { tags: Array.from({ length: 501 }, (_, i) => `link:t${i}`) }],
  ])("answers 400 to %s", async (_, body) => {
    const res = await call(post(body, `Bearer ${SECRET}`));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("ValidationException");
    expect(res.tags).toEqual([]);
  });

  it("accepts 500 tags", async () => {
    const tags = Array.from({ length: 500 }, (_, i) => `creator:h${i}`);
    const res = await call(post({ tags }, `Bearer ${SECRET}`));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revalidated: 500 });
  });
});
