import { describe, expect, it } from "vitest";
import {
  computeFulfilment,
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

describe("computeHourEntitlement and computeFulfilment", () => {
  it("entitled = min(share x capacity x 1 h, demand); received split; fulfilled = min(received, entitled)", () => {
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
      ["", 8, 8, 8, 8],
      ["x", 6, 8, 5, 5],
      ["x/x1", 2, 2, 1, 1],
      ["x/x2", 3, 6, 4, 3],
      ["y", 0, 0, 0, 0],
      ["z", 0, 0, 3, 0],
    ]);
    expect(computeFulfilment([hour[1]!, hour[1]!])).toBe(5 / 6);
  });

  it("fulfilment is null when nothing was entitled (no demand)", () => {
    expect(computeFulfilment([{ fulfilledGpuHours: 0, entitledGpuHours: 0 }])).toBeNull();
    expect(computeFulfilment([])).toBeNull();
  });
});

describe("overlapGpuHours", () => {
  it("counts GPUs x the part of the interval inside the hour", () => {
    expect(overlapGpuHours(8, 1800, null, 0)).toBe(4);
    expect(overlapGpuHours(2, -100, 900, 0)).toBe(0.5);
    expect(overlapGpuHours(2, 3600, 7200, 0)).toBe(0);
  });
});
