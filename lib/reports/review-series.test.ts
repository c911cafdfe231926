import { describe, expect, it } from "vitest";
import type { ClusterHour } from "./period-report";
import { buildPeriodSeries, usageRatiosAt } from "./review-series";
import { buildTreeEpochs } from "./weights-in-force";

const H = 3600;
const DAY = 86_400;
const shapes = [
  { id: "r", parentId: null, name: "lab" },
  { id: "a", parentId: "r", name: "a" },
  { id: "b", parentId: "r", name: "b" },
];
// a and b weigh 1 each; from day 1 on, a weighs 3.
const epochs = buildTreeEpochs(shapes, [
  { nodeId: "r", atSec: 0, weight: 1 },
  { nodeId: "a", atSec: 0, weight: 1 },
  { nodeId: "b", atSec: 0, weight: 1 },
  { nodeId: "a", atSec: DAY, weight: 3 },
]);
const leaf = (demand: number, allocated: number, unallocated = 0) => ({
  demandGpuSec: demand * H,
  allocatedGpuSec: allocated * H,
  unallocatedGpuSec: unallocated * H,
});
const hour = (atSec: number, leaves: ClusterHour["leaves"], cluster = "c"): ClusterHour => ({
  cluster,
  hourStartSec: atSec,
  capacityGpuSec: 4 * H,
  leaves,
});

describe("buildPeriodSeries", () => {
  it("sums each day with the weights in force in each hour", () => {
    const hours = [
      hour(0, { a: leaf(4, 3), b: leaf(1, 1) }),
      hour(H, { a: leaf(4, 2, 1) }),
      // Day 1: a owns 3 of the 4 GPUs.
      hour(DAY, { a: leaf(4, 2), b: leaf(4, 2) }),
      // Outside the period: ignored.
      hour(2 * DAY, { a: leaf(4, 4) }),
    ];
    const series = buildPeriodSeries(epochs, hours, 0, 2 * DAY);
    expect(series.bucketStartSec).toEqual([0, DAY]);
    expect(series.bucketSec).toBe(DAY);
    // Day 0: a entitled min(2, 4) twice = 4; day 1: min(3, 4) = 3.
    expect(series.byNode.a).toEqual({ entitled: [4, 3], allocated: [5, 2], unallocated: [1, 0] });
    // b: min(2, 1) on day 0; min(1, 4) on day 1.
    expect(series.byNode.b).toEqual({ entitled: [1, 1], allocated: [1, 2], unallocated: [0, 0] });
    // The root: min(4 GPUs, demand) each hour.
    expect(series.byNode.r?.entitled).toEqual([8, 4]);
  });

  it("charts by week past 62 days, and leaves empty buckets at zero", () => {
    const series = buildPeriodSeries(epochs, [hour(8 * DAY, { a: leaf(1, 1) })], 0, 70 * DAY);
    expect(series.bucketSec).toBe(7 * DAY);
    expect(series.bucketStartSec).toHaveLength(10);
    expect(series.byNode.a?.allocated.slice(0, 3)).toEqual([0, 1, 0]);
  });
});

describe("usageRatiosAt", () => {
  it("divides allocated use in the window by share x mean capacity x window", () => {
    const hours = [
      hour(DAY - 2 * H, { a: leaf(4, 3, 1), b: leaf(1, 1) }),
      hour(DAY + H, { a: leaf(4, 2) }),
      // Another cluster, and an hour after the moment: neither counts for c.
      hour(DAY, { a: leaf(8, 8) }, "other"),
      hour(DAY + 3 * H, { b: leaf(4, 4) }),
    ];
    const [ratios, other] = usageRatiosAt(epochs, hours, DAY + 2 * H, [
      { name: "c", lookbackSec: 3 * H },
      { name: "other", lookbackSec: 3 * H },
      { name: "idle", lookbackSec: 3 * H },
    ]);
    // Window [DAY - 1h, DAY + 2h) holds only the DAY + 1h hour of c: a used 2 GPU-h of
    // 3/4 x 4 GPUs x 3 h = 9 owed; b none of its 3.
    expect(ratios).toMatchObject({ cluster: "c", capacityGpus: 4, lookbackSec: 3 * H });
    expect(ratios!.ratios.a).toBeCloseTo(2 / 9, 12);
    expect(ratios!.ratios.b).toBe(0);
    expect(ratios!.ratios.r).toBeCloseTo(2 / 12, 12);
    expect(other!.ratios.a).toBeCloseTo(8 / 9, 12);
    // No roll-ups in the window: left out.
    expect(usageRatiosAt(epochs, hours, DAY + 2 * H, [{ name: "idle", lookbackSec: H }])).toEqual(
      [],
    );
  });

  it("is empty before any tree was in force", () => {
    expect(usageRatiosAt(epochs, [], 0, [{ name: "c", lookbackSec: H }])).toEqual([]);
  });
});
