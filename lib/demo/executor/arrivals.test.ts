import { describe, expect, it } from "vitest";
import { buildArrivals, WORKLOAD_SEC, type DemoLeaf } from "./arrivals";

// Leaves of the demo lab; climate lost its members, so its jobs are dropped.
const LEAVES: DemoLeaf[] = [
  { id: "a", path: "language/lm-pretrain", memberIds: ["u1", "u2"] },
  { id: "b", path: "vision/video-gen", memberIds: ["u3"] },
  { id: "c", path: "robotics/sim2real", memberIds: ["u4"] },
  { id: "d", path: "science/protein-design", memberIds: ["u5"] },
  { id: "e", path: "science/climate", memberIds: [] },
];
const CLUSTERS = [{ name: "small", gpuType: "H100", nodes: 4, gpusPerNode: 8 }];

describe("demo arrivals from the lab workload", () => {
  const arrivals = buildArrivals(LEAVES, CLUSTERS, 7);

  it("maps every job onto the leaf of its path and submits it as one of its members", () => {
    expect(arrivals.length).toBeGreaterThan(50);
    const memberOf = new Map(LEAVES.map((leaf) => [leaf.id, new Set(leaf.memberIds)]));
    for (const arrival of arrivals) {
      expect(memberOf.get(arrival.input.budgetId)?.has(arrival.userId)).toBe(true);
      expect(arrival.input.cluster).toBe("small");
      expect(arrival.input.gpus).toBeLessThanOrEqual(32);
      expect(arrival.input.minRuntimeSec).toBeLessThanOrEqual(8 * 3600);
      expect(arrival.input.workSec).toBeGreaterThanOrEqual(60);
    }
    expect(arrivals.some((arrival) => arrival.input.budgetId === "e")).toBe(false);
    expect(new Set(arrivals.map((arrival) => arrival.input.budgetId))).toEqual(
      new Set(["a", "b", "c", "d"]),
    );
  });

  it("is sorted within the week and the same for the same seed", () => {
    const offsets = arrivals.map((arrival) => arrival.offsetSec);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets.every((offset) => offset >= 0 && offset < WORKLOAD_SEC)).toBe(true);
    expect(buildArrivals(LEAVES, CLUSTERS, 7)).toEqual(arrivals);
  });
});
