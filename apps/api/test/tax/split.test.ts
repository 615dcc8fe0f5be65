import { describe, expect, it } from "vitest";
import { vatSplit } from "../../src/modules/tax/rules.ts";

const rates = [0, 770, 810, 1600, 1700, 1900, 2000, 2100, 2300, 2400, 2550, 2700];

describe("vatSplit", () => {
  // Checked in integers (no float tie to misjudge), failures collected: 120,000 expects would take seconds.
  it("inclusive: the buyer pays the amount; net + VAT = gross, the net rounded half up, VAT within a unit", () => {
    const failures: string[] = [];
    for (const rate of rates) {
      const divisor = 10_000 + rate;
      for (let amount = 1; amount <= 5000; amount++) {
        const { grossMinor, netMinor, vatMinor } = vatSplit(amount, rate, true);
        // 2 × (net − exact net) × divisor, exact net = amount × 10000 / divisor: within (−divisor, divisor].
        const twiceError = 2 * netMinor * divisor - 2 * amount * 10_000;
        const ok =
          grossMinor === amount &&
          netMinor + vatMinor === grossMinor &&
          Number.isInteger(netMinor) &&
          twiceError > -divisor &&
          twiceError <= divisor &&
          (rate !== 0 || vatMinor === 0);
        if (!ok) failures.push(`${amount} at ${rate}: ${netMinor} + ${vatMinor}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("exclusive: VAT is added to the amount; net + VAT = gross, the VAT rounded half up", () => {
    const failures: string[] = [];
    for (const rate of rates) {
      for (let amount = 1; amount <= 5000; amount++) {
        const { grossMinor, netMinor, vatMinor } = vatSplit(amount, rate, false);
        // 2 × (VAT − exact VAT) × 10000, exact VAT = amount × rate / 10000: within (−10000, 10000].
        const twiceError = 2 * vatMinor * 10_000 - 2 * amount * rate;
        const ok =
          netMinor === amount &&
          netMinor + vatMinor === grossMinor &&
          Number.isInteger(vatMinor) &&
          twiceError > -10_000 &&
          twiceError <= 10_000;
        if (!ok) failures.push(`${amount} at ${rate}: ${netMinor} + ${vatMinor}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("splits known prices", () => {
    expect(vatSplit(1200, 2000, true)).toEqual({ grossMinor: 1200, netMinor: 1000, vatMinor: 200 });
    expect(vatSplit(1000, 2000, false)).toEqual({ grossMinor: 1200, netMinor: 1000, vatMinor: 200 });
    // 9.99 at 27%: net 7.866… → 7.87, VAT 2.12.
    expect(vatSplit(999, 2700, true)).toEqual({ grossMinor: 999, netMinor: 787, vatMinor: 212 });
    // 0.10 at 25.5%: VAT 0.0255 → 0.03; 0.02 at 25%: VAT 0.005 → 0.01 (half up).
    expect(vatSplit(10, 2550, false)).toEqual({ grossMinor: 13, netMinor: 10, vatMinor: 3 });
    expect(vatSplit(2, 2500, false)).toEqual({ grossMinor: 3, netMinor: 2, vatMinor: 1 });
    expect(vatSplit(0, 2000, true)).toEqual({ grossMinor: 0, netMinor: 0, vatMinor: 0 });
  });

  it("stays exact on amounts whose products pass 2^53", () => {
    const amount = Number.MAX_SAFE_INTEGER - 1; // even
    const { netMinor, vatMinor, grossMinor } = vatSplit(amount, 2000, true);
    expect(netMinor + vatMinor).toBe(grossMinor);
    expect(BigInt(netMinor)).toBe((BigInt(amount) * 10_000n * 2n + 12_000n) / (2n * 12_000n));
    expect(() => vatSplit(amount, 2000, false)).toThrow(RangeError);
  });

  it("refuses what is not an amount or a rate", () => {
    for (const amount of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => vatSplit(amount, 2000, true)).toThrow(RangeError);
    for (const rate of [-1, 20.5, 10_001]) expect(() => vatSplit(100, rate, true)).toThrow(RangeError);
  });
});
