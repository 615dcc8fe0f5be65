import { describe, expect, it } from "vitest";
import { csvDocument, csvField } from "../../src/lib/csv.ts";

describe("CSV writing", () => {
  it("quotes what needs quoting and defuses formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-12.50")).toBe("-12.50");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("writes a whole file: header, rows, CRLF after every line, every cell guarded", () => {
    expect(csvDocument(["a", "b"], [])).toBe("a,b\r\n");
    expect(
      csvDocument(
        ["name", "amount"],
        [
          ["=cmd|' /C calc'!A0", "-0.05"],
          ["Ada, Countess", null],
        ],
      ),
    ).toBe(`name,amount\r\n'=cmd|' /C calc'!A0,-0.05\r\n"Ada, Countess",\r\n`);
    function* lazy() {
      yield [1, 2];
    }
    expect(csvDocument(["x", "y"], lazy())).toBe("x,y\r\n1,2\r\n");
  });
});
