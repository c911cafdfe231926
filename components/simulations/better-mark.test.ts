import { describe, expect, it } from "vitest";
import { markBetter } from "./better-mark";

describe("markBetter", () => {
  it("marks the lower or the higher value", () => {
    expect(markBetter([3600, 7200], ["1 h", "2 h"], "lower")).toEqual([true, false]);
    expect(markBetter([0.9, 0.95], ["90%", "95%"], "higher")).toEqual([false, true]);
  });

  it("marks nothing when the figures read the same, are equal, or one is missing", () => {
    expect(markBetter([71_800, 70_853], ["20 h", "20 h"], "lower")).toEqual([false, false]);
    expect(markBetter([5, 5], ["5", "5"], "lower")).toEqual([false, false]);
    expect(markBetter([5, Number.NaN], ["5", "–"], "lower")).toEqual([false, false]);
    expect(markBetter([1, 2], ["1", "2"], undefined)).toEqual([false, false]);
    expect(markBetter([71_800, 70_853, Number.NaN], ["20 h", "20 h", "–"], "lower")).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("with three columns, marks every column that reads as the best", () => {
    expect(markBetter([71_800, 70_853, 90_000], ["20 h", "20 h", "25 h"], "lower")).toEqual([
      true,
      true,
      false,
    ]);
  });
});
