import { createBankAccountBodySchema, ibanChecksumValid, ibanLengths, ibanSchema } from "@salelink/contracts";
import { describe, expect, it } from "vitest";

/** Published example IBANs of the national registries (ISO 13616), one per country where we have one. */
const valid = [
  "AT611904300234573201",
  "BE68539007547034",
  "CH9300762011623852957",
  "DE89370400440532013000",
  "ES9121000418450200051332",
  "FR1420041010050500013M02606",
  "IS140159260076545510730339",
  "IT60X0542811101000000123456",
  "LI21088100002324013AA",
  "MT84MALT011000012345MTLCAST001S",
  "NL91ABNA0417164300",
  "NO9386011117947",
  "PL61109010140000071219812874",
  "SE4550000000058398257466",
];

const messageOf = (input: string) => {
  const parsed = ibanSchema.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe("IBANs of the 30 European countries and Switzerland", () => {
  it("accepts valid IBANs, typed with spaces and in lower case", () => {
    for (const iban of valid) expect(messageOf(iban), iban).toBeNull();
    expect(ibanSchema.parse("fr14 2004 1010 0505 0001 3m02 606")).toBe("FR1420041010050500013M02606");
  });

  it("knows a length for each of the 30 countries and Switzerland", () => {
    expect(Object.keys(ibanLengths)).toHaveLength(31);
    expect(ibanLengths.CH).toBe(21);
    for (const iban of valid)
      expect(iban.length).toBe(ibanLengths[iban.slice(0, 2) as keyof typeof ibanLengths]);
  });

  it("catches a typo with the check digits, a wrong length, another country and garbage", () => {
    // One digit changed, two digits swapped: the mod-97 check catches both.
    expect(ibanChecksumValid("DE89370400440532013001")).toBe(false);
    expect(messageOf("DE89370400440532013001")).toBe(
      "This IBAN's check digits do not match: check for a typo.",
    );
    expect(messageOf("DE89370400440523013000")).toBe(
      "This IBAN's check digits do not match: check for a typo.",
    );
    expect(messageOf("DE8937040044053201300")).toBe("This IBAN does not have the length of its country's.");
    // British accounts are given by sort code and account number, not IBAN.
    expect(messageOf("GB29NWBK60161331926819")).toBe(
      "Payouts go to IBANs in the 30 European countries we serve and Switzerland.",
    );
    expect(messageOf("not an iban")).toBe("Enter an IBAN: two letters, two digits, then the account.");
  });

  it("takes an optional BIC of 8 or 11 characters", () => {
    const base = { holderName: "Ada Lovelace", iban: "DE89370400440532013000" };
    const parsed = createBankAccountBodySchema.parse({ ...base, bic: "cobadeffxxx" });
    expect(parsed.kind === "iban" && parsed.bic).toBe("COBADEFFXXX");
    expect(createBankAccountBodySchema.safeParse({ ...base, bic: "COBADEFF" }).success).toBe(true);
    expect(createBankAccountBodySchema.safeParse({ ...base, bic: "COBA" }).success).toBe(false);
    expect(createBankAccountBodySchema.safeParse(base).success).toBe(true);
  });
});
