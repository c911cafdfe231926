import { describe, expect, it } from "vitest";
import type { BucketFlow } from "./period-report";
import { periodSeries, usageRatiosOf } from "./review-series";

const DAY = 86_400;
const flow = (entitled: number, allocated: number, unallocated = 0): BucketFlow => ({
  entitledGpuHours: entitled,
  receivedGpuHours: allocated + unallocated,
  receivedAllocatedGpuHours: allocated,
  receivedUnallocatedGpuHours: unallocated,
});

describe("periodSeries", () => {
  it("gives one bucket per day of the period, rounded, days outside it ignored", () => {
    const series = periodSeries(
      [
        { dayStartSec: 0, nodes: { a: flow(4, 5, 1), b: flow(1, 1) } },
        { dayStartSec: DAY, nodes: { a: flow(3, 2), b: flow(1 / 3, 2) } },
        { dayStartSec: 2 * DAY, nodes: { a: flow(9, 9) } },
      ],
      0,
      2 * DAY,
    );
    expect(series.bucketStartSec).toEqual([0, DAY]);
    expect(series.bucketSec).toBe(DAY);
    expect(series.isRecorded).toEqual([true, true]);
    expect(series.byNode.a).toEqual({ entitled: [4, 3], allocated: [5, 2], unallocated: [1, 0] });
    expect(series.byNode.b).toEqual({
      entitled: [1, 0.33],
      allocated: [1, 2],
      unallocated: [0, 0],
    });
  });

  it("sums days into weeks past 62 days, and leaves empty buckets at zero and not recorded", () => {
    const series = periodSeries(
      [
        { dayStartSec: 8 * DAY, nodes: { a: flow(1, 1) } },
        { dayStartSec: 9 * DAY, nodes: { a: flow(2, 1.5, 0.5) } },
      ],
      0,
      70 * DAY,
    );
    expect(series.bucketSec).toBe(7 * DAY);
    expect(series.bucketStartSec).toHaveLength(10);
    expect(series.byNode.a?.allocated.slice(0, 3)).toEqual([0, 2.5, 0]);
    expect(series.byNode.a?.entitled.slice(0, 3)).toEqual([0, 3, 0]);
    expect(series.byNode.a?.unallocated[1]).toBe(0.5);
    expect(series.isRecorded.slice(0, 3)).toEqual([false, true, false]);
  });
});

describe("usageRatiosOf", () => {
  it("keys each cluster's ratios by node and leaves out clusters without a tree", () => {
    const ratios = usageRatiosOf([
      {
        cluster: "c",
        atSec: DAY,
        windowSec: 7 * DAY,
        capacityGpus: 8,
        nodes: [
          { id: "a", usageRatio: 0.5 },
          { id: "b", usageRatio: null },
        ],
      },
      { cluster: "empty", atSec: DAY, windowSec: DAY, capacityGpus: 4, nodes: [] },
    ]);
    expect(ratios).toEqual([
      {
        cluster: "c",
        atSec: DAY,
        lookbackSec: 7 * DAY,
        capacityGpus: 8,
        ratios: { a: 0.5, b: null },
      },
    ]);
  });
});
