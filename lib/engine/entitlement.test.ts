import { describe, expect, it } from "vitest";
import {
  isAllocationDemand,
  computeFulfilment,
  computeHourlyFulfilment,
  computeHourEntitlement,
  computeWorkConservingEntitlement,
  overlapGpuHours,
} from "./entitlement";
import { buildTree } from "./test-helpers";

const TREE = buildTree({
  name: "lab",
  children: [
    { name: "x", weight: 3, children: [{ name: "x1" }, { name: "x2" }] },
    { name: "y", weight: 1 },
    { name: "z", weight: 0 },
  ],
});

describe("computeWorkConservingEntitlement", () => {
  it("pours capacity by weight, caps each node by demand, and lets the rest flow to siblings", () => {
    const flat = buildTree({ name: "lab", children: [{ name: "a" }, { name: "b" }] });
    expect([...computeWorkConservingEntitlement(flat, 8, { a: 1, b: 10 })]).toEqual([8, 1, 7]);
  });

  it("water-fills at every level; idle and zero-weight nodes get nothing", () => {
    // x takes all 8 (y has no demand, z no weight); inside x, x1 is capped at 2, x2 gets 6.
    expect([...computeWorkConservingEntitlement(TREE, 8, { "x/x1": 2, "x/x2": 10, z: 5 })]).toEqual(
      [8, 8, 2, 6, 0, 0],
    );
  });

  it("gives everyone their demand when capacity exceeds it", () => {
    expect([...computeWorkConservingEntitlement(TREE, 100, { "x/x1": 2, y: 3 })]).toEqual([
      5, 2, 2, 0, 3, 0,
    ]);
  });
});

describe("computeHourEntitlement and computeHourlyFulfilment", () => {
  it("a leaf's entitled = min(share x capacity x 1 h, demand), an inner node's its leaves' sum", () => {
    const hour = computeHourEntitlement(TREE, 8, {
      demandGpuHours: { "x/x1": 2, "x/x2": 10, z: 5 },
      receivedAllocatedGpuHours: { "x/x1": 1, "x/x2": 4 },
      receivedUnallocatedGpuHours: { z: 3 },
    });
    expect(
      hour.map((node) => [
        node.path,
        node.entitledGpuHours,
        node.workConservingGpuHours,
        node.receivedGpuHours,
        node.fulfilledGpuHours,
      ]),
    ).toEqual([
      // The lab is entitled to what its leaves are (2 + 3), not to min(8, its demand 17): z's
      // 3 unallocated GPU-hours were nobody's entitlement.
      ["", 5, 8, 8, 4],
      ["x", 5, 8, 5, 4],
      ["x/x1", 2, 2, 1, 1],
      ["x/x2", 3, 6, 4, 3],
      ["y", 0, 0, 0, 0],
      ["z", 0, 0, 3, 0],
    ]);
    expect(computeHourlyFulfilment([hour[1]!, hour[1]!])).toBe(0.8);
  });

  it("hour-by-hour fulfilment is null when nothing was entitled (no demand)", () => {
    expect(computeHourlyFulfilment([{ fulfilledGpuHours: 0, entitledGpuHours: 0 }])).toBeNull();
    expect(computeHourlyFulfilment([])).toBeNull();
  });

  it("hour-by-hour: a surplus in one hour does not make up for another hour's shortfall", () => {
    const hours = [
      { fulfilledGpuHours: Math.min(0, 4), entitledGpuHours: 4 },
      { fulfilledGpuHours: Math.min(8, 4), entitledGpuHours: 4 },
    ];
    expect(computeHourlyFulfilment(hours)).toBe(0.5);
    expect(computeFulfilment([{ receivedGpuHours: 8, entitledGpuHours: 8 }])).toBe(1);
  });
});

describe("computeFulfilment over a period", () => {
  it("a budget over its entitlement is at 100%, never above", () => {
    expect(computeFulfilment([{ receivedGpuHours: 543_698, entitledGpuHours: 466_362 }])).toBe(1);
  });

  it("a budget under its entitlement is at received / entitled", () => {
    expect(computeFulfilment([{ receivedGpuHours: 1_574, entitledGpuHours: 6_542 }])).toBe(
      1_574 / 6_542,
    );
  });

  it("a branch sums min(received, entitled) of its leaves: one surplus hides no shortfall", () => {
    const leaves = [
      { receivedGpuHours: 50, entitledGpuHours: 100 },
      { receivedGpuHours: 300, entitledGpuHours: 100 },
    ];
    expect(computeFulfilment(leaves)).toBe(0.75);
  });

  it("a leaf with no demand (entitled 0) counts for nothing; none at all is null", () => {
    const idle = { receivedGpuHours: 12, entitledGpuHours: 0 };
    expect(computeFulfilment([idle, { receivedGpuHours: 9, entitledGpuHours: 10 }])).toBe(0.9);
    expect(computeFulfilment([idle])).toBeNull();
    expect(computeFulfilment([])).toBeNull();
  });
});

describe("fulfilment across a mid-period weight change", () => {
  it("each hour is entitled under the weights in force then; the period sums those hours", () => {
    // a and b split 8 GPUs 1:1 in the first hour and 3:1 in the second; both ask for all 8 and
    // each gets 4 in both hours (the scheduler has not caught up with the change yet).
    const flows = {
      demandGpuHours: { a: 8, b: 8 },
      receivedAllocatedGpuHours: { a: 4, b: 4 },
      receivedUnallocatedGpuHours: {},
    };
    const before = buildTree({ name: "lab", children: [{ name: "a" }, { name: "b" }] });
    const after = buildTree({
      name: "lab",
      children: [
        { name: "a", weight: 3 },
        { name: "b", weight: 1 },
      ],
    });
    const hours = [
      computeHourEntitlement(before, 8, flows),
      computeHourEntitlement(after, 8, flows),
    ];
    const period = (i: number) => ({
      entitledGpuHours: hours[0]![i]!.entitledGpuHours + hours[1]![i]!.entitledGpuHours,
      receivedGpuHours: hours[0]![i]!.receivedGpuHours + hours[1]![i]!.receivedGpuHours,
    });
    const [a, b] = [period(1), period(2)];
    expect([a, b]).toEqual([
      { entitledGpuHours: 4 + 6, receivedGpuHours: 8 },
      { entitledGpuHours: 4 + 2, receivedGpuHours: 8 },
    ]);
    expect(computeFulfilment([a])).toBe(0.8);
    expect(computeFulfilment([b])).toBe(1);
    // The lab: (8 + 6) / 16, b's surplus hiding nothing of a's shortfall.
    expect(computeFulfilment([a, b])).toBe(0.875);
    expect(computeHourlyFulfilment([hours[0]![1]!, hours[1]![1]!])).toBe(0.8);
  });
});

describe("isAllocationDemand", () => {
  it("counts jobs that ask for an allocation, not free jobs (minimum runtime 0)", () => {
    expect([0, 1, 900, 8 * 3600].map(isAllocationDemand)).toEqual([false, true, true, true]);
  });
});

describe("overlapGpuHours", () => {
  it("counts GPUs x the part of the interval inside the hour", () => {
    expect(overlapGpuHours(8, 1800, null, 0)).toBe(4);
    expect(overlapGpuHours(2, -100, 900, 0)).toBe(0.5);
    expect(overlapGpuHours(2, 3600, 7200, 0)).toBe(0);
  });
});
