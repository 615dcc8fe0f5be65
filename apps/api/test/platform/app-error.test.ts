import { describe, expect, it } from "vitest";
import { AppError, validation } from "../../src/lib/errors.ts";

describe("AppError's options", () => {
  it("takes the exception's usual status unless told otherwise", () => {
    expect(new AppError("ConflictException", "x").statusCode).toBe(409);
    expect(new AppError("NotFoundException", "x", {}).statusCode).toBe(404);
    expect(new AppError("RateLimitException", "x", { status: 429 }).statusCode).toBe(429);
    expect(new AppError("ConflictException", "x", { status: 423 }).statusCode).toBe(423);
  });

  it("carries field errors, headers and placeholder values by name", () => {
    const err = new AppError("ValidationException", "Some fields are invalid.", {
      errors: { code: ["Too short."] },
      headers: { "retry-after": "30" },
      params: { after: "30 s" },
    });
    expect(err.message).toBe("Some fields are invalid.");
    expect(err.exception).toBe("ValidationException");
    expect(err.errors).toEqual({ code: ["Too short."] });
    expect(err.headers).toEqual({ "retry-after": "30" });
    expect(err.params).toEqual({ after: "30 s" });
    expect(new AppError("ConflictException", "x").errors).toBeUndefined();
  });

  it("validation() fills the same options", () => {
    const err = validation({ price: ["Between {min} and {max}."] }, undefined, { min: "1.00", max: "9.00" });
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe("Some fields are invalid.");
    expect(err.errors).toEqual({ price: ["Between {min} and {max}."] });
    expect(err.params).toEqual({ min: "1.00", max: "9.00" });
    expect(err.headers).toBeUndefined();
  });
});
