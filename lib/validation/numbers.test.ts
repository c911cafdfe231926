import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formInt4, int4, INT4_MAX, INT4_MIN } from "./numbers";

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("int4", () => {
  it("takes -2^31 and 2^31 - 1, refuses one past either end", () => {
    expect(int4().parse(INT4_MIN)).toBe(-2_147_483_648);
    expect(int4().parse(INT4_MAX)).toBe(2_147_483_647);
    expect(issuesOf(int4(), 2 ** 31)).toEqual(["Use at most 2,147,483,647."]);
    expect(issuesOf(int4(), -(2 ** 31) - 1)).toEqual(["Use at least -2,147,483,648."]);
  });

  it("refuses 1e15, 2^53, fractions, Infinity, NaN and strings", () => {
    expect(issuesOf(int4(), 1e15)).toEqual(["Use at most 2,147,483,647."]);
    expect(issuesOf(int4(), 2 ** 53)).toContain("Use at most 2,147,483,647.");
    expect(issuesOf(int4(), 1.5)).toEqual(["Use a whole number."]);
    expect(issuesOf(int4(), Infinity)).toHaveLength(1);
    expect(issuesOf(int4(), Number.NaN)).toHaveLength(1);
    expect(issuesOf(int4({ error: "Send a number." }), "7")).toEqual(["Send a number."]);
  });

  it("uses the field's own bounds and messages, clamped to the int4 range", () => {
    const gpus = int4({ min: 1, max: 100, minMessage: "At least 1 GPU.", whole: "Whole GPUs." });
    expect(issuesOf(gpus, 0)).toEqual(["At least 1 GPU."]);
    expect(issuesOf(gpus, 101)).toEqual(["Use at most 100."]);
    expect(issuesOf(gpus, 2.5)).toEqual(["Whole GPUs."]);
    expect(issuesOf(int4({ max: 2 ** 40 }), 2 ** 31)).toEqual(["Use at most 2,147,483,647."]);
  });
});

describe("formInt4", () => {
  it("reads digits only: an empty field is not 0, 1e3 is not 1000", () => {
    expect(formInt4({ min: 0 }).parse(" 12 ")).toBe(12);
    expect(issuesOf(formInt4({ error: "Choose a node." }), "")).toEqual(["Choose a node."]);
    expect(issuesOf(formInt4(), "1e3")).toEqual(["Use a whole number."]);
    expect(issuesOf(formInt4(), "0x10")).toEqual(["Use a whole number."]);
  });

  it("refuses 2147483648 and negative indices with the field's message", () => {
    expect(issuesOf(formInt4(), "2147483648")).toEqual(["Use at most 2,147,483,647."]);
    expect(issuesOf(formInt4({ min: 0, minMessage: "From 0." }), "-1")).toEqual(["From 0."]);
  });
});
