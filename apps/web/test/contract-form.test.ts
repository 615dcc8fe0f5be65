import { createProfileBodySchema, passwordChangeBodySchema } from "@salelink/contracts";
import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import {
  apiFailureErrors,
  type ContractRules,
  checkedValues,
  contractResolver,
  errorLeaves,
  toFormErrors,
} from "../components/ui/use-contract-form.ts";
import { ApiError } from "../lib/api.ts";

/** The resolver as react-hook-form calls it on submit. */
function resolve<TForm extends Record<string, string>, TBody>(
  rules: ContractRules<TForm, TBody>,
  values: TForm,
) {
  const options = { fields: {}, shouldUseNativeValidation: false } as unknown as ResolverOptions<TForm>;
  return contractResolver(() => rules)(values, undefined, options);
}

const profileRules: ContractRules<{ displayName: string; handle: string; links: string }, unknown> = {
  schema: createProfileBodySchema,
  toBody: ({ links, ...rest }) => ({ ...rest, socialLinks: links.split("\n").filter(Boolean) }),
  // The form shows the contract's socialLinks under its own textarea's name.
  fieldOf: (path) => (path.startsWith("socialLinks") ? "links" : (path.split(".")[0] ?? path)),
  message: (field, code) => `${field}:${code}`,
};

describe("the contract form's client check", () => {
  it("checks the request with the contract and shows the catalogue's message on the form's field", async () => {
    const result = await resolve(profileRules, {
      displayName: "",
      handle: "ok_handle",
      links: "https://a.example\nnot-a-url",
    });
    const shown = Object.fromEntries(errorLeaves(result.errors).map((e) => [e.path, e.message]));
    expect(shown).toEqual({ displayName: "displayName:too_small", links: expect.stringMatching(/^links:/) });
    expect(result.values).toEqual({});
  });

  it("gives the contract's own text to the message, for codes that cover several rules", async () => {
    const result = await resolve(
      {
        schema: passwordChangeBodySchema,
        toBody: (v: { x: string }) => v,
        message: (_f, _c, text) => `[${text}]`,
      },
      { x: "" },
    );
    const messages = errorLeaves(result.errors).map((e) => e.message);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => /^\[.+\]$/.test(m))).toBe(true);
  });

  it("hands the parsed request (with the contract's defaults) to the submit", async () => {
    const result = await resolve(profileRules, { displayName: "Ada", handle: "ada_l", links: "" });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      displayName: "Ada",
      handle: "ada_l",
      socialLinks: [],
      bio: "",
      avatarFileId: null,
    });
  });

  it("adds the form's own rules over the contract's", async () => {
    const result = await resolve(
      {
        schema: passwordChangeBodySchema,
        toBody: (v: { oldPassword: string; newPassword: string }) => ({ ...v, turnstileToken: "t" }),
        message: (field) => `bad ${field}`,
        check: (v): Record<string, string> =>
          v.newPassword === v.oldPassword ? { newPassword: "same as old" } : {},
      },
      { oldPassword: "a-long-password-1", newPassword: "a-long-password-1" },
    );
    expect(errorLeaves(result.errors)).toEqual([
      { path: "newPassword", type: "contract", message: "same as old" },
    ]);
  });
});

describe("the API's refusal on the form", () => {
  const refusal = (errors?: Record<string, string[]>) =>
    new ApiError(400, { statusCode: 400, error: "ValidationException", message: "Invalid", errors });

  it("puts each field error on its form field, the first one per field", () => {
    expect(
      apiFailureErrors(
        refusal({ "socialLinks.2": ["third"], "socialLinks.0": ["first"], handle: ["taken"] }),
        "failed",
      ),
    ).toEqual({ socialLinks: "third", handle: "taken" });
    expect(apiFailureErrors(refusal({ priceMinor: ["too high"] }), "failed", () => "price")).toEqual({
      price: "too high",
    });
  });

  it("shows the form's top message when no field is named, or the call did not reach the API", () => {
    expect(apiFailureErrors(refusal(), "failed")).toEqual({ form: "failed" });
    expect(apiFailureErrors(new TypeError("fetch failed"), "failed")).toEqual({ form: "failed" });
    expect(apiFailureErrors(refusal(), (err) => (err instanceof ApiError ? err.message : "?"))).toEqual({
      form: "Invalid",
    });
  });

  it("keeps the first message per form field when several paths share one", () => {
    expect(toFormErrors({ "a.1": "x", "a.0": "y", b: "z" })).toEqual({ a: "x", b: "z" });
  });
});

describe("react-hook-form's nested errors", () => {
  it("are read back as dotted paths, without descending into a field's ref", () => {
    const ref = { name: "x", focus: () => {} };
    expect(
      errorLeaves({
        title: { type: "too_small", message: "short", ref },
        links: [undefined, { type: "invalid_format", message: "url", ref }],
        root: { type: "api", message: "failed" },
      }),
    ).toEqual([
      { path: "title", type: "too_small", message: "short" },
      { path: "links.1", type: "invalid_format", message: "url" },
      { path: "root", type: "api", message: "failed" },
    ]);
  });
});

describe("a group of checkboxes", () => {
  it("is the list of the boxes checked, however many boxes there are", () => {
    expect(checkedValues(["a", "b"])).toEqual(["a", "b"]);
    expect(checkedValues("a")).toEqual(["a"]);
    expect(checkedValues(false)).toEqual([]);
    expect(checkedValues("")).toEqual([]);
    expect(checkedValues(undefined)).toEqual([]);
  });
});
