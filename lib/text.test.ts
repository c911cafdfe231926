import { describe, expect, it } from "vitest";
import { z } from "zod";
import { lineString, textProblem, textString } from "./text";

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("textProblem", () => {
  it("names NUL, its code point and its position (from 1) in a name", () => {
    expect(textProblem("lm\u0000pretrain", "line")).toBe(
      "Remove the control character U+0000 at position 3: names and ids cannot contain control characters.",
    );
  });

  it("refuses tab, LF and CR in a line, and the first control of several", () => {
    expect(textProblem("a\tb", "line")).toMatch(
      /^Remove the control character U\+0009 at position 2/,
    );
    expect(textProblem("a\nb", "line")).toMatch(/U\+000A/);
    expect(textProblem("a\rb\u0001", "line")).toMatch(/U\+000D at position 2/);
  });

  it("refuses DEL and the C1 controls U+0080-U+009F, takes U+00A0 and emoji", () => {
    expect(textProblem("a\u007f", "line")).toMatch(/U\+007F/);
    expect(textProblem("a\u0085", "text")).toMatch(/U\+0085/);
    expect(textProblem("a\u009f", "line")).toMatch(/U\+009F/);
    expect(textProblem("a\u00a0b 🙂 é", "line")).toBeNull();
  });

  it("lets free text keep tabs, LF and CRLF, but not a lone CR or other controls", () => {
    expect(textProblem("first\tline\nsecond\r\nthird", "text")).toBeNull();
    expect(textProblem("a\rb", "text")).toBe(
      "Remove the control character U+000D at position 2: text may contain tabs and line breaks, but no other control characters.",
    );
    expect(textProblem("oom\u0000", "text")).toMatch(/U\+0000 at position 4/);
    expect(textProblem("bell\u0007", "text")).toMatch(/U\+0007/);
  });

  it("refuses lone surrogates (high or low), takes a surrogate pair", () => {
    expect(textProblem("a\ud800b", "text")).toBe(
      "Remove the broken character at position 2 (a lone UTF-16 surrogate): send valid Unicode text.",
    );
    expect(textProblem("\udfff", "line")).toMatch(/position 1 \(a lone UTF-16 surrogate\)/);
    expect(textProblem("end\ud83d", "line")).toMatch(/position 4/);
    expect(textProblem("\ud83d\ude42", "line")).toBeNull();
  });
});

describe("lineString and textString", () => {
  it("check the value as sent, before trim: a trailing newline in a name is refused", () => {
    const name = lineString().trim().min(1).max(5);
    expect(name.parse("  ab  ")).toBe("ab");
    expect(issuesOf(name, "ab\n")).toEqual([
      "Remove the control character U+000A at position 3: names and ids cannot contain control characters.",
    ]);
  });

  it("report only the control character, not the length too (the check aborts the field)", () => {
    expect(issuesOf(lineString().max(3), "\u0000abcdef")).toHaveLength(1);
  });

  it("keep their own messages for wrong types and bounds", () => {
    expect(issuesOf(lineString({ error: "Enter a name." }), 42)).toEqual(["Enter a name."]);
    expect(issuesOf(lineString().max(2, "Too long."), "abc")).toEqual(["Too long."]);
  });

  it("turn CRLF into LF in free text", () => {
    expect(textString().parse("a\r\nb\r\n")).toBe("a\nb\n");
  });

  it("name the field inside an object and skip its refinements", () => {
    let isRefined = false;
    const schema = z.object({ reason: textString() }).superRefine(() => {
      isRefined = true;
    });
    const result = schema.safeParse({ reason: "x\u0000" });
    expect(result.success ? [] : result.error.issues.map((issue) => issue.path)).toEqual([
      ["reason"],
    ]);
    expect(isRefined).toBe(false);
  });
});
