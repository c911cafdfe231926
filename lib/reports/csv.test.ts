import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

describe("csvField", () => {
  it("leaves plain text and numbers alone", () => {
    expect(csvField("lm-pretrain")).toBe("lm-pretrain");
    expect(csvField(0.9312)).toBe("0.9312");
    expect(csvField(1234.5)).toBe("1234.5");
  });

  it("quotes commas, quotes and line breaks, doubling inner quotes", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
  });

  it("defuses spreadsheet formulas (=, +, -, @) with an apostrophe", () => {
    expect(csvField("=SUM(A1:A9)")).toBe("'=SUM(A1:A9)");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-x")).toBe("'-x");
    expect(csvField("@cmd")).toBe("'@cmd");
    expect(csvField("=1,2")).toBe(`"'=1,2"`);
    // Negative numbers are numbers, not formulas.
    expect(csvField(-3)).toBe("-3");
  });

  it("writes nothing for null, undefined, NaN and infinities", () => {
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
    expect(csvField(Number.POSITIVE_INFINITY)).toBe("");
  });
});

describe("toCsv", () => {
  it("writes the header and every row, each line ended by CRLF", () => {
    expect(
      toCsv(
        ["path", "hours"],
        [
          ["a/b", 1.5],
          ["", null],
        ],
      ),
    ).toBe("path,hours\r\na/b,1.5\r\n,\r\n");
  });

  it("is just the header for no rows", () => {
    expect(toCsv(["a"], [])).toBe("a\r\n");
  });
});
