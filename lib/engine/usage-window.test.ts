import { describe, expect, it } from "vitest";
import { buildTree } from "./test-helpers";
import {
  computeLeafUsage,
  rollUpUsage,
  runUsageGpuSeconds,
  usageRatio,
  usageWindowSec,
} from "./usage-window";
import type { UsageRun } from "./types";

const WINDOW = { kind: "window", lookbackSec: 1000 } as const;

function run(extra: Partial<UsageRun>): UsageRun {
  return { budgetId: "a", gpus: 2, startSec: 0, endSec: null, isAllocated: true, ...extra };
}

describe("runUsageGpuSeconds (window)", () => {
  it("counts GPUs x overlap with [now - W, now]", () => {
    expect(runUsageGpuSeconds(run({ startSec: 100, endSec: 400 }), 2000, WINDOW)).toBe(0);
    expect(runUsageGpuSeconds(run({ startSec: 900, endSec: 1500 }), 2000, WINDOW)).toBe(1000);
    expect(runUsageGpuSeconds(run({ startSec: 1200, endSec: 1500 }), 2000, WINDOW)).toBe(600);
  });

  it("counts a running run up to now, and nothing after now", () => {
    expect(runUsageGpuSeconds(run({ startSec: 1500, endSec: null }), 2000, WINDOW)).toBe(1000);
    expect(runUsageGpuSeconds(run({ startSec: 1500, endSec: 9000 }), 2000, WINDOW)).toBe(1000);
    expect(runUsageGpuSeconds(run({ startSec: 2500, endSec: null }), 2000, WINDOW)).toBe(0);
  });

  it("never counts unallocated time", () => {
    expect(runUsageGpuSeconds(run({ isAllocated: false }), 2000, WINDOW)).toBe(0);
  });
});

describe("runUsageGpuSeconds (half-life decay)", () => {
  it("integrates 2^(-age / H) exactly: one half-life back weighs half as much", () => {
    const decay = { kind: "decay", halfLifeSec: 3600 } as const;
    const recent = runUsageGpuSeconds(
      run({ gpus: 1, startSec: 7200 - 60, endSec: 7200 }),
      7200,
      decay,
    );
    const older = runUsageGpuSeconds(
      run({ gpus: 1, startSec: 3600 - 60, endSec: 3600 }),
      7200,
      decay,
    );
    expect(recent).toBeCloseTo(59.654757, 5);
    expect(older / recent).toBeCloseTo(0.5, 12);
    // A run that never ends has total weight H / ln 2 per GPU.
    expect(runUsageGpuSeconds(run({ gpus: 1, startSec: -1e9 }), 0, decay)).toBeCloseTo(
      3600 / Math.LN2,
      6,
    );
    expect(usageWindowSec(decay)).toBeCloseTo(5193.7021, 3);
  });
});

describe("computeLeafUsage and rollUpUsage", () => {
  it("sums allocated GPU-seconds per leaf and up the tree", () => {
    const usage = computeLeafUsage(
      [
        run({ budgetId: "x/a", startSec: 0, endSec: 100 }),
        run({ budgetId: "x/a", startSec: 50, endSec: null, gpus: 1 }),
        run({ budgetId: "b", startSec: 0, endSec: 100, isAllocated: false }),
      ],
      100,
    );
    expect({ ...usage }).toEqual({ "x/a": 250 });
    const tree = buildTree({
      name: "root",
      children: [{ name: "x", children: [{ name: "a" }] }, { name: "b" }],
    });
    expect([...rollUpUsage(tree, usage)]).toEqual([250, 250, 250, 0]);
  });

  it("usage ratio is usage over owed GPU-seconds, null when nothing is owed", () => {
    expect(usageRatio(302400, 0.5, 1, 604800)).toBe(1);
    expect(usageRatio(10, 0, 8, 604800)).toBeNull();
  });
});
