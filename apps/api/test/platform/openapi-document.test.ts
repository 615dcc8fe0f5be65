import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, testApp } from "../support/app.ts";

/*
 * Issue 17, item 15: the OpenAPI document (/docs/json) says what the routes really do. The click
 * call answers an empty 204, and the upload takes a multipart body whose `file` part is the file.
 */

interface Operation {
  requestBody?: { required?: boolean; content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: unknown }>;
}

let ctx: TestContext;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  ctx = await testApp();
  const res = await ctx.app.inject({ method: "GET", url: "/docs/json" });
  expect(res.statusCode).toBe(200);
  paths = res.json().paths;
});
afterAll(async () => {
  await ctx.close();
});

function operation(path: string, method: string): Operation {
  const found = paths[path]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
}

describe("the OpenAPI document", () => {
  it("gives PATCH /campaigns/clicks/{token} its empty 204, and only that", async () => {
    const click = operation("/campaigns/clicks/{token}", "patch");
    expect(Object.keys(click.responses)).toEqual(["204"]);
    expect(click.responses["204"]?.content).toBeUndefined();
    expect(click.responses["204"]?.description).not.toBe("Default Response");
    // What the document says is what the route does.
    const res = await ctx.app.inject({
      method: "PATCH",
      url: "/campaigns/clicks/unknownToken1",
      payload: { token: "unknownToken1" },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
  });

  it("documents POST /upload's body: multipart/form-data with a required binary `file`", () => {
    const upload = operation("/upload", "post");
    expect(upload.requestBody?.required).toBe(true);
    expect(Object.keys(upload.requestBody?.content ?? {})).toEqual(["multipart/form-data"]);
    expect(upload.requestBody?.content["multipart/form-data"]?.schema).toMatchObject({
      type: "object",
      required: ["file"],
      properties: { file: { type: "string", format: "binary" } },
    });
    expect(Object.keys(upload.responses)).toEqual(["201"]);
  });
});
