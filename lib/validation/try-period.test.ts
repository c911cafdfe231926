import { describe, expect, it } from "vitest";
import { reviewQueryString, tryPeriodOf } from "./try-period";

describe("tryPeriodOf", () => {
  it("is the review's month or range of days, on its cluster or all, in the what-if's terms", () => {
    expect(tryPeriodOf({ month: "2026-11", cluster: "b300" })).toEqual({
      from: "2026-11-01T00:00:00.000Z",
      to: "2026-12-01T00:00:00.000Z",
      clusters: ["b300"],
      label: "November 2026 on b300",
    });
    expect(tryPeriodOf({ from: "2026-10-03", to: "2026-10-17" })).toEqual({
      from: "2026-10-03T00:00:00.000Z",
      to: "2026-10-18T00:00:00.000Z",
      label: "3 Oct 2026 – 17 Oct 2026",
    });
  });

  it("is null when the query names no period or one the review refuses", () => {
    expect(tryPeriodOf({})).toBeNull();
    expect(tryPeriodOf({ cluster: "b300" })).toBeNull();
    expect(tryPeriodOf({ month: "2026-13" })).toBeNull();
    expect(tryPeriodOf({ from: "2026-10-03" })).toBeNull();
  });
});

describe("reviewQueryString", () => {
  it("keeps the review's keys only, first values, encoded", () => {
    expect(reviewQueryString({ month: "2026-11", cluster: ["b 300", "h100"], node: "x" })).toBe(
      "month=2026-11&cluster=b+300",
    );
    expect(reviewQueryString({ edit: "1" })).toBe("");
  });
});
