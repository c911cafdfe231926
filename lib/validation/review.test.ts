import { describe, expect, it } from "vitest";
import { lastFullMonth } from "../reports/review-period";
import { periodOfQuery, reviewQuerySchema } from "./review";

const issues = (input: unknown) => {
  const result = reviewQuerySchema.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
};
const FALLBACK = lastFullMonth(Date.UTC(2026, 10, 30) / 1000);

describe("reviewQuerySchema", () => {
  it("accepts nothing, a month, or a range, with empty form fields as absent", () => {
    expect(periodOfQuery(reviewQuerySchema.parse({}), FALLBACK)).toBe(FALLBACK);
    expect(reviewQuerySchema.parse({ month: "2026-09", from: "", to: "", cluster: "" })).toEqual({
      month: "2026-09",
    });
    const range = reviewQuerySchema.parse({
      from: "2026-10-03",
      to: "2026-10-09",
      cluster: "h100",
    });
    expect(periodOfQuery(range, FALLBACK)).toMatchObject({
      fromDate: "2026-10-03",
      toDate: "2026-10-09",
    });
    expect(range.cluster).toBe("h100");
  });

  it("names the field and the reason for bad input", () => {
    expect(issues({ month: "2026-13" })).toEqual([
      { path: "month", message: "There is no month 13: months run from 01 to 12." },
    ]);
    expect(issues({ month: "October" })).toEqual([
      { path: "month", message: "Use a month as YYYY-MM, e.g. 2026-10." },
    ]);
    expect(issues({ from: "2026-10-01" })).toEqual([
      { path: "to", message: "A range needs both from and to." },
    ]);
    expect(issues({ month: "2026-10", from: "2026-10-01", to: "2026-10-02" })).toEqual([
      { path: "month", message: "Give either a month or a from-to range, not both." },
    ]);
    expect(issues({ from: "2026-10-09", to: "2026-10-01" })).toEqual([
      { path: "to", message: "The range ends (2026-10-01) before it starts." },
    ]);
    expect(issues({ from: "2025-01-01", to: "2026-01-02" })).toEqual([
      { path: "to", message: "A review covers at most 366 days." },
    ]);
  });

  it("refuses impossible days, years outside 2000-2100 and control characters, by field", () => {
    expect(issues({ from: "2026-02-30", to: "2026-03-02" })).toEqual([
      { path: "from", message: "There is no day 30 in February 2026: it has 28 days." },
    ]);
    expect(issues({ month: "0050-01" })).toEqual([
      { path: "month", message: "Use a year from 2000 to 2100." },
    ]);
    expect(issues({ month: "9999-12" })).toEqual([
      { path: "month", message: "Use a year from 2000 to 2100." },
    ]);
    expect(issues({ from: "2026-10-01", to: "0000-01-01" })).toEqual([
      { path: "to", message: "Use a year from 2000 to 2100." },
    ]);
    expect(issues({ month: "2026-10", cluster: "h\u0000100" })).toEqual([
      {
        path: "cluster",
        message:
          "Remove the control character U+0000 at position 2: names and ids cannot contain control characters.",
      },
    ]);
  });
});
