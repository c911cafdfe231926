import { describe, expect, it } from "vitest";
import { rollUpCounts, summariseWaits } from "./wait-stats";

const parentOf = new Map<string, string | null>([
  ["root", null],
  ["p", "root"],
  ["a", "p"],
  ["b", "p"],
  ["c", "root"],
]);

describe("summariseWaits", () => {
  it("takes nearest-rank p50 and p90 per class, for the leaf and every ancestor", () => {
    const waits = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((waitSec) => ({
      budgetId: "a",
      jobClass: "debug",
      waitSec,
    }));
    const out = summariseWaits(parentOf, [
      ...waits,
      { budgetId: "b", jobClass: "debug", waitSec: 1000 },
      { budgetId: "c", jobClass: "training", waitSec: 7 },
    ]);
    // 10 values: p50 is the 5th, p90 the 9th.
    expect(out.a).toEqual({ debug: { jobs: 10, waitP50Sec: 50, waitP90Sec: 90 } });
    // 11 values: p50 the 6th (60), p90 the 10th (100).
    expect(out.p).toEqual({ debug: { jobs: 11, waitP50Sec: 60, waitP90Sec: 100 } });
    expect(out.root).toEqual({
      debug: { jobs: 11, waitP50Sec: 60, waitP90Sec: 100 },
      training: { jobs: 1, waitP50Sec: 7, waitP90Sec: 7 },
    });
    expect(out.c).toEqual({ training: { jobs: 1, waitP50Sec: 7, waitP90Sec: 7 } });
  });

  it("keeps jobs of unknown budgets on their own id and is empty for no jobs", () => {
    expect(summariseWaits(parentOf, [{ budgetId: "x", jobClass: "debug", waitSec: 5 }])).toEqual({
      x: { debug: { jobs: 1, waitP50Sec: 5, waitP90Sec: 5 } },
    });
    expect(summariseWaits(parentOf, [])).toEqual({});
  });
});

describe("rollUpCounts", () => {
  it("gives every node its subtree's total", () => {
    expect(rollUpCounts(parentOf, { a: 2, b: 3, c: 1 })).toEqual({
      a: 2,
      b: 3,
      p: 5,
      c: 1,
      root: 6,
    });
  });

  it("stops on a cycle instead of looping", () => {
    const looped = new Map<string, string | null>([
      ["x", "y"],
      ["y", "x"],
    ]);
    expect(rollUpCounts(looped, { x: 1 })).toEqual({ x: 1, y: 1 });
  });
});
