import { describe, expect, it } from "vitest";
import { minutesUntil, stockState } from "../../src/modules/checkout/reservations.ts";
import { testConfig } from "../support/app.ts";

const config = testConfig({ CHECKOUT_RESERVATION_MINUTES: "15" });
const at = (iso: string) => new Date(iso);

describe("the reservation rule (no database)", () => {
  it("an unlimited stock is always available", () => {
    expect(stockState(config, null, 1_000, { count: 1_000, oldest: at("2026-01-01T00:00:00Z") })).toEqual({
      state: "available",
    });
  });

  it("is sold out once the sales reach the limit, whatever is held", () => {
    expect(stockState(config, 5, 5)).toEqual({ state: "sold-out" });
    expect(stockState(config, 5, 6, { count: 0, oldest: null })).toEqual({ state: "sold-out" });
  });

  it("is available while sales plus live reservations stay under the limit", () => {
    expect(stockState(config, 5, 3, { count: 1, oldest: at("2026-01-01T00:00:00Z") })).toEqual({
      state: "available",
    });
  });

  it("is reserved out when the reservations take the rest, until the oldest one ends", () => {
    expect(stockState(config, 5, 3, { count: 2, oldest: at("2026-01-01T10:00:00Z") })).toEqual({
      state: "reserved-out",
      availableAgainAt: at("2026-01-01T10:15:00Z"),
    });
  });

  it("says at least one whole minute, rounded up", () => {
    const now = at("2026-01-01T10:00:00Z").getTime();
    expect(minutesUntil(at("2026-01-01T10:00:10Z"), now)).toBe(1);
    expect(minutesUntil(at("2026-01-01T09:59:00Z"), now)).toBe(1);
    expect(minutesUntil(at("2026-01-01T10:04:01Z"), now)).toBe(5);
  });
});
