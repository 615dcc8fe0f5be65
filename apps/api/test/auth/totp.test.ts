import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { base32Decode, base32Encode } from "../../src/lib/base32.ts";
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  isRecoveryCodeShape,
  normaliseRecoveryCode,
  RECOVERY_CODE_ALPHABET,
} from "../../src/lib/recovery-codes.ts";
import {
  generateTotpSecret,
  hotp,
  otpauthQrSvg,
  otpauthUri,
  totpCode,
  totpStep,
  verifyTotp,
} from "../../src/lib/totp.ts";

// Wraps the real comparison so a test can see that codes are compared with it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

/** The secret of RFC 4226 appendix D and RFC 6238 appendix B: the 20 ASCII bytes "1234567890" twice. */
const RFC_KEY = Buffer.from("12345678901234567890", "ascii");
const RFC_SECRET = base32Encode(RFC_KEY);
const at = (seconds: number) => new Date(seconds * 1000);

describe("base32 (RFC 4648)", () => {
  it("matches the RFC 4648 section 10 vectors, without padding", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    expect(RFC_SECRET).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });

  it("decodes what people type: lower case, spaces, padding; refuses other characters", () => {
    expect(base32Decode("mzxw 6ytb-oi======").toString()).toBe("foobar");
    expect(() => base32Decode("MZXW1")).toThrow();
  });
});

describe("HOTP (RFC 4226 appendix D)", () => {
  it("gives the ten published 6-digit values", () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    expected.forEach((code, counter) => {
      expect(hotp(RFC_KEY, counter)).toBe(code);
    });
  });
});

describe("TOTP (RFC 6238)", () => {
  it("gives the appendix B SHA-1 values (8 digits)", () => {
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1_111_111_109, "07081804"],
      [1_111_111_111, "14050471"],
      [1_234_567_890, "89005924"],
      [2_000_000_000, "69279037"],
      [20_000_000_000, "65353130"],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(RFC_SECRET, at(seconds), 8)).toBe(code);
      expect(verifyTotp(RFC_SECRET, code, { time: at(seconds), digits: 8, window: 0 })).toBe(
        totpStep(at(seconds)),
      );
    }
  });

  it("uses 6 digits and 30-second steps by default (the last 6 digits of the 8-digit value)", () => {
    expect(totpCode(RFC_SECRET, at(59))).toBe("287082");
    expect(totpCode(RFC_SECRET, at(1_234_567_890))).toBe("005924");
    expect(totpStep(at(59))).toBe(1);
    expect(totpStep(at(60))).toBe(2);
    expect(totpStep(59_999)).toBe(1);
    expect(totpCode(RFC_SECRET, at(30))).toBe(totpCode(RFC_SECRET, at(59)));
    expect(totpCode(RFC_SECRET, at(60))).not.toBe(totpCode(RFC_SECRET, at(59)));
  });

  it("makes 160-bit base32 secrets without padding", () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(secret);
  });

  describe("window", () => {
    const secret = generateTotpSecret();
    // The first second of step 1000, so one second earlier is already the previous step.
    const now = at(30_000);
    const step = totpStep(now);
    const codeAt = (offset: number) => totpCode(secret, at(30_000 + offset * 30));

    it("accepts the current step and one either side by default, answering the step matched", () => {
      expect(verifyTotp(secret, codeAt(0), { time: now })).toBe(step);
      expect(verifyTotp(secret, codeAt(-1), { time: now })).toBe(step - 1);
      expect(verifyTotp(secret, codeAt(1), { time: now })).toBe(step + 1);
    });

    it("refuses codes two steps away, and more than the current step with window 0", () => {
      expect(verifyTotp(secret, codeAt(-2), { time: now })).toBeNull();
      expect(verifyTotp(secret, codeAt(2), { time: now })).toBeNull();
      expect(verifyTotp(secret, codeAt(-1), { time: now, window: 0 })).toBeNull();
      expect(verifyTotp(secret, codeAt(2), { time: now, window: 2 })).toBe(step + 2);
    });

    it("moves with the clock at a step boundary", () => {
      const justBefore = new Date(now.getTime() - 1);
      expect(verifyTotp(secret, codeAt(-2), { time: justBefore })).toBe(step - 2);
      expect(verifyTotp(secret, codeAt(1), { time: justBefore })).toBeNull();
    });

    it("refuses the step already used and earlier ones (replay)", () => {
      expect(verifyTotp(secret, codeAt(0), { time: now, lastUsedStep: step })).toBeNull();
      expect(verifyTotp(secret, codeAt(-1), { time: now, lastUsedStep: step - 1 })).toBeNull();
      expect(verifyTotp(secret, codeAt(0), { time: now, lastUsedStep: step - 1 })).toBe(step);
    });

    it("refuses a window outside 0 to 10 as a programming error", () => {
      expect(() => verifyTotp(secret, codeAt(0), { time: now, window: -1 })).toThrow(RangeError);
      expect(() => verifyTotp(secret, codeAt(0), { time: now, window: 11 })).toThrow(RangeError);
    });
  });

  it("refuses anything but the right number of digits, tolerating the spaces apps display", () => {
    const code = totpCode(RFC_SECRET, at(59));
    const options = { time: at(59) };
    expect(verifyTotp(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, options)).toBe(1);
    for (const bad of [
      "",
      code.slice(0, 5),
      `${code}0`,
      `${code.slice(0, 5)}a`,
      `-${code.slice(1)}`,
      `+${code.slice(1)}`,
      // Full-width digits, as some keyboards type them: not what the app shows, so refused.
      code.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))),
      "0x4611",
    ]) {
      expect(verifyTotp(RFC_SECRET, bad, options)).toBeNull();
    }
  });

  it("compares codes in constant time, over the whole window even after a match", () => {
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    expect(verifyTotp(RFC_SECRET, totpCode(RFC_SECRET, at(3000)), { time: at(3000) })).toBe(100);
    expect(spy).toHaveBeenCalledTimes(3);
    spy.mockClear();
    expect(verifyTotp(RFC_SECRET, "000000", { time: at(3000), window: 2 })).toBeNull();
    expect(spy).toHaveBeenCalledTimes(5);
  });
});

describe("otpauth URI and QR code", () => {
  it("follows the Key URI Format with the issuer in label and parameter", () => {
    const uri = otpauthUri({ secret: "JBSWY3DPEHPK3PXP", account: "ana maría+1@example.com" });
    expect(uri).toBe(
      "otpauth://totp/Salelink:ana%20mar%C3%ADa%2B1%40example.com" +
        "?secret=JBSWY3DPEHPK3PXP&issuer=Salelink&algorithm=SHA1&digits=6&period=30",
    );
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe("otpauth:");
    expect(parsed.searchParams.get("secret")).toBe("JBSWY3DPEHPK3PXP");
    // A colon in the account must not read as the issuer separator.
    expect(otpauthUri({ secret: "A", account: "a:b", issuer: "Sale Link" })).toContain(
      "totp/Sale%20Link:a%3Ab?secret=A&issuer=Sale%20Link",
    );
  });

  it("renders the URI as an SVG QR code", async () => {
    const svg = await otpauthQrSvg(otpauthUri({ secret: generateTotpSecret(), account: "a@example.com" }));
    expect(svg.trimStart()).toMatch(/^<svg[\s>]/);
    expect(svg).toContain("<path");
    expect(svg.trimEnd()).toMatch(/<\/svg>$/);
  });
});

describe("recovery codes", () => {
  it("makes ten distinct codes like abcd-efgh-jkmn from the unambiguous alphabet", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const group = `[${RECOVERY_CODE_ALPHABET}]{4}`;
    for (const code of codes) {
      expect(code).toMatch(new RegExp(`^${group}-${group}-${group}$`));
      expect(isRecoveryCodeShape(code)).toBe(true);
    }
    expect(generateRecoveryCodes(3)).toHaveLength(3);
    expect(() => generateRecoveryCodes(0)).toThrow(RangeError);
  });

  it("leaves out characters that read alike", () => {
    for (const confusable of ["0", "o", "1", "l", "i"])
      expect(RECOVERY_CODE_ALPHABET).not.toContain(confusable);
    expect(new Set(RECOVERY_CODE_ALPHABET).size).toBe(RECOVERY_CODE_ALPHABET.length);
  });

  it("uses every symbol over many draws", () => {
    const seen = new Set(generateRecoveryCodes(100).join("").replaceAll("-", ""));
    expect(seen.size).toBe(RECOVERY_CODE_ALPHABET.length);
  });

  it("normalises case, spaces and dashes before hashing", () => {
    expect(normaliseRecoveryCode(" ABCD efgh—JKMN ")).toBe("abcdefghjkmn");
    expect(normaliseRecoveryCode("ＡＢＣＤ-ＥＦＧＨ-ＪＫＭＮ")).toBe("abcdefghjkmn");
    const hash = hashRecoveryCode("abcd-efgh-jkmn");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode("ABCD EFGH JKMN")).toBe(hash);
    expect(hashRecoveryCode("abcdefghjkmn")).toBe(hash);
    expect(hashRecoveryCode("abcd-efgh-jkmp")).not.toBe(hash);
  });

  it("tells a code's shape from anything else", () => {
    expect(isRecoveryCodeShape("abcd-efgh-jkm")).toBe(false);
    expect(isRecoveryCodeShape("abcd-efgh-jkm0")).toBe(false);
    expect(isRecoveryCodeShape("123456")).toBe(false);
  });
});
