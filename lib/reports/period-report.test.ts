import { describe, expect, it } from "vitest";
import { buildPeriodReport, type ClusterHour } from "./period-report";
import { buildTreeEpochs, type WeightEvent } from "./weights-in-force";

const H = 3600;
const shapes = [
  { id: "r", parentId: null, name: "lab" },
  { id: "a", parentId: "r", name: "a" },
  { id: "b", parentId: "r", name: "b" },
];
const start: WeightEvent[] = [
  { nodeId: "r", atSec: 0, weight: 1 },
  { nodeId: "a", atSec: 0, weight: 1 },
  { nodeId: "b", atSec: 0, weight: 1 },
];
const gpuSec = (gpuHours: number) => gpuHours * H;
const leaf = (demand: number, allocated: number, unallocated = 0) => ({
  demandGpuSec: gpuSec(demand),
  allocatedGpuSec: gpuSec(allocated),
  unallocatedGpuSec: gpuSec(unallocated),
});
// A 4-GPU cluster for two hours.
const hours: ClusterHour[] = [
  {
    cluster: "c",
    hourStartSec: 0,
    capacityGpuSec: gpuSec(4),
    leaves: { a: leaf(4, 3), b: leaf(1, 1) },
  },
  {
    cluster: "c",
    hourStartSec: H,
    capacityGpuSec: gpuSec(4),
    leaves: { a: leaf(4, 1, 1), b: leaf(4, 2) },
  },
];

describe("buildPeriodReport", () => {
  it("uses the weights in force in each hour (a weight change in the middle of the period)", () => {
    // Hour 0: a and b weigh 1 each, 2 GPU-h owed each. a: entitled min(2, 4) = 2, received 3
    // -> fulfilled 2. b: entitled min(2, 1) = 1, fulfilled 1.
    // From hour 1, a weighs 3: owed 3 and 1. a: entitled 3, received 2 -> fulfilled 2.
    // b: entitled 1, received 2 -> fulfilled 1.
    // Over the period a received 5 of its 5 entitled GPU-hours: 100%, though hour by hour it
    // got 4 of 5 (80%) in the hours they were owed.
    const epochs = buildTreeEpochs(shapes, [...start, { nodeId: "a", atSec: H, weight: 3 }]);
    const report = buildPeriodReport(epochs, hours);
    const a = report.nodes.find((node) => node.id === "a")!;
    const b = report.nodes.find((node) => node.id === "b")!;
    expect(a).toMatchObject({
      // 50% in hour 0, 75% in hour 1: the share in force over the period, not the last hour's.
      effectiveShare: 0.625,
      demandGpuHours: 8,
      entitledGpuHours: 5,
      receivedAllocatedGpuHours: 4,
      receivedUnallocatedGpuHours: 1,
      receivedGpuHours: 5,
      fulfilment: 1,
      hourlyFulfilment: 0.8,
    });
    expect(b).toMatchObject({
      effectiveShare: 0.375,
      entitledGpuHours: 2,
      receivedGpuHours: 3,
      fulfilment: 1,
      hourlyFulfilment: 1,
    });
    expect(report.clusters).toEqual([
      {
        cluster: "c",
        capacityGpuHours: 8,
        busyGpuHours: 8,
        utilisation: 1,
        unallocatedShare: 0.125,
      },
    ]);
    expect(report.headline).toEqual({
      utilisation: 1,
      unallocatedShare: 0.125,
      fulfilment: 1,
      hourlyFulfilment: 6 / 7,
      fundedBudgets: 2,
      fundedAtLeast95: 2,
      worst: { path: "a", fulfilment: 1, hourlyFulfilment: 0.8 },
    });
  });

  it("names as least served, among budgets that all received their due, the least served hour by hour", () => {
    // The same hours with a and b swapped: b now got 4 of its 5 hours when owed, a all of its.
    const swapped = hours.map((hour) => ({
      ...hour,
      leaves: { a: hour.leaves.b!, b: hour.leaves.a! },
    }));
    const epochs = buildTreeEpochs(shapes, [...start, { nodeId: "b", atSec: H, weight: 3 }]);
    expect(buildPeriodReport(epochs, swapped).headline.worst).toEqual({
      path: "b",
      fulfilment: 1,
      hourlyFulfilment: 0.8,
    });
  });

  it("a branch's fulfilment sums its leaves' min(received, entitled): a surplus hides no shortfall", () => {
    // a is owed 2 per hour and gets 1 then 0; b is owed 2 and gets 3 then 4 (idle GPUs).
    const uneven: ClusterHour[] = [
      {
        cluster: "c",
        hourStartSec: 0,
        capacityGpuSec: gpuSec(4),
        leaves: { a: leaf(2, 1), b: leaf(4, 3) },
      },
      {
        cluster: "c",
        hourStartSec: H,
        capacityGpuSec: gpuSec(4),
        leaves: { a: leaf(2, 0), b: leaf(4, 4) },
      },
    ];
    const report = buildPeriodReport(buildTreeEpochs(shapes, start), uneven);
    const byId = Object.fromEntries(report.nodes.map((node) => [node.id, node]));
    expect(byId.a).toMatchObject({ entitledGpuHours: 4, receivedGpuHours: 1, fulfilment: 0.25 });
    expect(byId.b).toMatchObject({ entitledGpuHours: 4, receivedGpuHours: 7, fulfilment: 1 });
    // The lab received 8 of its 8 entitled hours, but a branch counts (1 + 4) / 8.
    expect(byId.r).toMatchObject({ entitledGpuHours: 8, receivedGpuHours: 8, fulfilment: 5 / 8 });
    expect(report.headline).toMatchObject({
      fulfilment: 5 / 8,
      fundedBudgets: 2,
      fundedAtLeast95: 1,
      worst: { path: "a", fulfilment: 0.25, hourlyFulfilment: 0.25 },
    });
  });

  it("a leaf with no demand is not funded: no fulfilment, not counted", () => {
    const quiet: ClusterHour[] = [
      { cluster: "c", hourStartSec: 0, capacityGpuSec: gpuSec(4), leaves: { a: leaf(2, 2) } },
    ];
    const report = buildPeriodReport(buildTreeEpochs(shapes, start), quiet);
    expect(report.nodes.find((node) => node.id === "b")).toMatchObject({
      entitledGpuHours: 0,
      fulfilment: null,
      hourlyFulfilment: null,
    });
    expect(report.headline).toMatchObject({ fulfilment: 1, fundedBudgets: 1 });
  });

  it("gives a different answer when the weights never changed", () => {
    const report = buildPeriodReport(buildTreeEpochs(shapes, start), hours);
    // Hour 1 with equal weights: a entitled min(2, 4) = 2 and received 2: fully served.
    expect(report.nodes.find((node) => node.id === "a")).toMatchObject({
      entitledGpuHours: 4,
      fulfilment: 1,
    });
  });

  it("sums a branch's subtree and orders nodes depth first", () => {
    const report = buildPeriodReport(buildTreeEpochs(shapes, start), hours);
    expect(report.nodes.map((node) => node.id)).toEqual(["r", "a", "b"]);
    // The root is entitled to its leaves' sum: a 2 + 2, b 1 + 2 (not min(4, demand) per hour).
    expect(report.nodes[0]).toMatchObject({
      demandGpuHours: 13,
      entitledGpuHours: 7,
      receivedGpuHours: 8,
      fulfilment: 1,
    });
  });

  it("sums entitled and received per bucket when asked (hourly and two-hourly)", () => {
    const epochs = buildTreeEpochs(shapes, [...start, { nodeId: "a", atSec: H, weight: 3 }]);
    expect(buildPeriodReport(epochs, hours).buckets).toBeUndefined();
    const hourly = buildPeriodReport(epochs, hours, { bucketSec: H }).buckets!;
    expect(hourly.map((bucket) => bucket.startSec)).toEqual([0, H]);
    expect(hourly[0]!.nodes.a).toMatchObject({ entitledGpuHours: 2, receivedGpuHours: 3 });
    expect(hourly[1]!.nodes.a).toEqual({
      entitledGpuHours: 3,
      receivedGpuHours: 2,
      receivedAllocatedGpuHours: 1,
      receivedUnallocatedGpuHours: 1,
    });
    expect(hourly[1]!.nodes.b).toMatchObject({ entitledGpuHours: 1, receivedGpuHours: 2 });
    const both = buildPeriodReport(epochs, hours, { bucketSec: 2 * H }).buckets!;
    expect(both).toHaveLength(1);
    // The root adds up its leaves: a's 5 and b's 2.
    expect(both[0]!.nodes.r).toMatchObject({ entitledGpuHours: 7, receivedGpuHours: 8 });
    expect(both[0]!.nodes.a).toMatchObject({ entitledGpuHours: 5, receivedGpuHours: 5 });
  });

  it("counts an hour that began before the first weights with them: the lab row adds up to the busy hours", () => {
    // The weights come into force at 00:30, in the middle of hour 0 (the demo's history starts
    // at an odd second): hour 0 is read with them, as hour 1 is.
    const late = start.map((event) => ({ ...event, atSec: 1800 }));
    const report = buildPeriodReport(buildTreeEpochs(shapes, late), hours);
    const lab = report.nodes.find((node) => node.id === "r")!;
    expect(report.clusters[0]!.busyGpuHours).toBe(8);
    expect(lab.receivedAllocatedGpuHours + lab.receivedUnallocatedGpuHours).toBe(8);
    expect(lab).toMatchObject({ entitledGpuHours: 7, receivedGpuHours: 8 });
    expect(report.nodes.find((node) => node.id === "a")).toMatchObject({
      entitledGpuHours: 4,
      receivedGpuHours: 5,
    });
  });

  it("shows the share in force over the period: a late raise barely moves it, a late budget is near 0", () => {
    // Four hours on two clusters; at 03:00 a goes from 1 to 3 and a new budget n (weight 4)
    // appears. By hour: a 50%, 50%, 50%, then 3/8; b 50% then 1/8; n 0% then 50%.
    const shapesWithN = [...shapes, { id: "n", parentId: "r", name: "n" }];
    const epochs = buildTreeEpochs(shapesWithN, [
      ...start,
      { nodeId: "a", atSec: 3 * H, weight: 3 },
      { nodeId: "n", atSec: 3 * H, weight: 4 },
    ]);
    const fourHours: ClusterHour[] = [0, 1, 2, 3].flatMap((index) =>
      ["c", "d"].map((cluster) => ({
        cluster,
        hourStartSec: index * H,
        capacityGpuSec: gpuSec(4),
        leaves: { a: leaf(4, 2), b: leaf(4, 2) },
      })),
    );
    const report = buildPeriodReport(epochs, fourHours);
    const byId = Object.fromEntries(report.nodes.map((node) => [node.id, node]));
    expect(byId.r!.effectiveShare).toBe(1);
    expect(byId.a!.effectiveShare).toBeCloseTo((3 * 0.5 + 3 / 8) / 4, 12);
    expect(byId.b!.effectiveShare).toBeCloseTo((3 * 0.5 + 1 / 8) / 4, 12);
    expect(byId.n!.effectiveShare).toBeCloseTo(0.5 / 4, 12);
    // Share x the GPU-hours in service is what each was owed before demand capped it.
    expect(byId.a!.entitledGpuHours).toBeCloseTo(byId.a!.effectiveShare * 8 * 4, 12);
    expect(byId.b!.entitledGpuHours).toBeCloseTo(byId.b!.effectiveShare * 8 * 4, 12);
  });

  it("counts the hours after a budget was removed as 0 in its share", () => {
    const epochs = buildTreeEpochs(shapes, [...start, { nodeId: "b", atSec: H, weight: null }]);
    const report = buildPeriodReport(epochs, hours);
    expect(report.nodes.map((node) => [node.id, node.effectiveShare])).toEqual([
      ["r", 1],
      ["a", 0.75],
      ["b", 0.25],
    ]);
  });

  it("reports no fulfilment when nothing was demanded, and no utilisation without capacity", () => {
    const idle: ClusterHour[] = [{ cluster: "c", hourStartSec: 0, capacityGpuSec: 0, leaves: {} }];
    const report = buildPeriodReport(buildTreeEpochs(shapes, start), idle);
    expect(report.nodes.every((node) => node.fulfilment === null)).toBe(true);
    expect(report.headline).toMatchObject({
      utilisation: null,
      fulfilment: null,
      worst: null,
      fundedBudgets: 0,
    });
  });
});

describe("buildTreeEpochs", () => {
  it("starts an epoch at every change, applies same-second changes together, and drops removed nodes", () => {
    const epochs = buildTreeEpochs(shapes, [
      ...start,
      { nodeId: "a", atSec: 100, weight: 2 },
      { nodeId: "b", atSec: 100, weight: 2 },
      { nodeId: "b", atSec: 200, weight: null },
    ]);
    expect(epochs.map((epoch) => [epoch.fromSec, epoch.toSec])).toEqual([
      [0, 100],
      [100, 200],
      [200, Infinity],
    ]);
    expect(epochs[1]!.tree.nodes.map((node) => node.effectiveShare)).toEqual([1, 0.5, 0.5]);
    expect(epochs[2]!.tree.nodes.map((node) => node.id)).toEqual(["r", "a"]);
  });

  it("leaves out a node whose parent does not exist yet", () => {
    const epochs = buildTreeEpochs(
      [...shapes, { id: "a1", parentId: "x", name: "orphan" }],
      [...start, { nodeId: "a1", atSec: 0, weight: 1 }],
    );
    expect(epochs[0]!.tree.nodes.map((node) => node.id)).toEqual(["r", "a", "b"]);
  });
});
