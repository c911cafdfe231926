import { describe, expect, it } from "vitest";
import { computeHourlyRollups, type RollupInput, type UsageHour } from "./rollup";
import { buildTreeEpochs, type WeightEvent } from "./weights-in-force";

const H = 3600;
const shapes = [
  { id: "r", parentId: null, name: "lab" },
  { id: "a", parentId: "r", name: "a" },
  { id: "b", parentId: "r", name: "b" },
];
const equalWeights: WeightEvent[] = [
  { nodeId: "r", atSec: 0, weight: 1 },
  { nodeId: "a", atSec: 0, weight: 1 },
  { nodeId: "b", atSec: 0, weight: 1 },
];
// Two nodes of 4 GPUs. Node 0 drains from 1000 s: in service until its run rc ends at 4200 s.
// Node 1 is down from 5400 s.
const nodes: RollupInput["nodes"] = [
  { index: 0, gpus: 4, changes: [{ atSec: 1000, health: "draining" }] },
  { index: 1, gpus: 4, changes: [{ atSec: 5400, health: "down" }] },
];
const input: RollupInput = {
  clusterId: "c",
  fromSec: 0,
  untilSec: 2 * H,
  jobs: [
    // a: 4 GPUs, submitted at 0, one allocated run from 00:30 to 01:30 (crosses the hour).
    { id: "ja", budgetId: "a", gpus: 4, minRuntimeSec: 1800, submitSec: 0, endSec: 5400 },
    // b: 2 GPUs submitted at 00:50, still pending.
    { id: "jb", budgetId: "b", gpus: 2, minRuntimeSec: 600, submitSec: 3000, endSec: null },
    // b: 4 GPUs, an unallocated run from 00:10 preempted at 01:10, requeued (still pending).
    { id: "jc", budgetId: "b", gpus: 4, minRuntimeSec: 600, submitSec: 600, endSec: null },
  ],
  runs: [
    {
      id: "ra",
      budgetId: "a",
      gpus: 4,
      startSec: 1800,
      endSec: 5400,
      isAllocated: true,
      isPreempted: false,
      nodes: [1],
    },
    {
      id: "rc",
      budgetId: "b",
      gpus: 4,
      startSec: 600,
      endSec: 4200,
      isAllocated: false,
      isPreempted: true,
      nodes: [0],
    },
  ],
  nodes,
  epochs: buildTreeEpochs(shapes, equalWeights),
};

const row = (over: Partial<UsageHour> & Pick<UsageHour, "budgetId" | "hourStartSec">) => ({
  clusterId: "c",
  demandGpuSec: 0,
  allocatedGpuSec: 0,
  unallocatedGpuSec: 0,
  healthyCapacityGpuSec: 0,
  preemptions: 0,
  effectiveShare: 0.5,
  ...over,
});

describe("computeHourlyRollups", () => {
  it("splits runs and demand at hour boundaries, counts preemptions and healthy capacity", () => {
    expect(computeHourlyRollups(input)).toEqual([
      // Hour 0: a demanded 4 x 3600, ran 4 x 1800 allocated. b: 2 x 600 pending + 4 x 3000
      // from its submit at 600 = 13,200 demand; 4 x 3000 unallocated. All 8 GPUs in service
      // (draining node 0 still runs rc).
      row({
        budgetId: "a",
        hourStartSec: 0,
        demandGpuSec: 14_400,
        allocatedGpuSec: 7200,
        healthyCapacityGpuSec: 28_800,
      }),
      row({
        budgetId: "b",
        hourStartSec: 0,
        demandGpuSec: 13_200,
        unallocatedGpuSec: 12_000,
        healthyCapacityGpuSec: 28_800,
      }),
      // Hour 1: a until 01:30: 4 x 1800 each. b: 2 x 3600 + 4 x 3600 demand, 4 x 600
      // unallocated, one preemption. Capacity: node 0 until rc ends at 01:10 (then drained, out
      // of service), node 1 until 01:30: 4 x 600 + 4 x 1800.
      row({
        budgetId: "a",
        hourStartSec: H,
        demandGpuSec: 7200,
        allocatedGpuSec: 7200,
        healthyCapacityGpuSec: 9600,
      }),
      row({
        budgetId: "b",
        hourStartSec: H,
        demandGpuSec: 21_600,
        unallocatedGpuSec: 2400,
        preemptions: 1,
        healthyCapacityGpuSec: 9600,
      }),
    ]);
  });

  it("counts a partial last hour up to untilSec, open runs and pending jobs included", () => {
    const rows = computeHourlyRollups({
      ...input,
      jobs: [{ id: "j", budgetId: "a", gpus: 2, minRuntimeSec: 3600, submitSec: 0, endSec: null }],
      runs: [
        {
          id: "r",
          budgetId: "a",
          gpus: 2,
          startSec: 3600,
          endSec: null,
          isAllocated: true,
          isPreempted: false,
          nodes: [0],
        },
      ],
      nodes: [{ index: 0, gpus: 8, changes: [] }],
      untilSec: H + 900,
    });
    expect(rows).toEqual([
      row({ budgetId: "a", hourStartSec: 0, demandGpuSec: 7200, healthyCapacityGpuSec: 28_800 }),
      row({
        budgetId: "a",
        hourStartSec: H,
        demandGpuSec: 1800,
        allocatedGpuSec: 1800,
        healthyCapacityGpuSec: 7200,
      }),
    ]);
  });

  it("counts no demand for a free job (minimum runtime 0), but its unallocated run as received", () => {
    const rows = computeHourlyRollups({
      ...input,
      jobs: [{ id: "j", budgetId: "a", gpus: 8, minRuntimeSec: 0, submitSec: 0, endSec: null }],
      runs: [
        {
          id: "r",
          budgetId: "a",
          gpus: 8,
          startSec: 1800,
          endSec: 2700,
          isAllocated: false,
          isPreempted: true,
          nodes: [0],
        },
      ],
      nodes: [{ index: 0, gpus: 8, changes: [] }],
      untilSec: H,
    });
    expect(rows).toEqual([
      row({
        budgetId: "a",
        hourStartSec: 0,
        unallocatedGpuSec: 7200,
        preemptions: 1,
        healthyCapacityGpuSec: 28_800,
      }),
    ]);
  });

  it("counts a draining node until its last run ends, and an empty one not at all", () => {
    const run = (id: string, node: number, endSec: number | null) => ({
      id,
      budgetId: "a",
      gpus: 8,
      startSec: 0,
      endSec,
      isAllocated: true,
      isPreempted: false,
      nodes: [node],
    });
    const draining = (index: number) => ({
      index,
      gpus: 8,
      changes: [{ atSec: 600, health: "draining" as const }],
    });
    const rows = computeHourlyRollups({
      ...input,
      jobs: [],
      // Node 0 empties at 1800 s; node 1's run outlives the range; node 2 holds nothing.
      runs: [run("r0", 0, 1800), run("r1", 1, null)],
      nodes: [draining(0), draining(1), draining(2)],
      untilSec: H,
    });
    // 8 x 1800 (node 0) + 8 x 3600 (node 1) + 8 x 600 (node 2, until the drain began).
    expect(rows.map((r) => [r.budgetId, r.healthyCapacityGpuSec])).toEqual([
      ["a", 14_400 + 28_800 + 4800],
    ]);
  });

  it("counts each drain of a node on its own, and a drain that ends down only until then", () => {
    const run = (id: string, node: number, startSec: number, endSec: number) => ({
      id,
      budgetId: "a",
      gpus: 8,
      startSec,
      endSec,
      isAllocated: true,
      isPreempted: false,
      nodes: [node],
    });
    const rows = computeHourlyRollups({
      ...input,
      jobs: [],
      // Node 0 drains at 600 s until its run ends at 1200 s, is healthy from 1800 s, runs from
      // 1800 s to 3000 s and drains again at 2400 s. Node 1 drains at 600 s with a run to 3000 s
      // and goes down at 1500 s.
      runs: [run("r0", 0, 0, 1200), run("r1", 0, 1800, 3000), run("r2", 1, 0, 3000)],
      nodes: [
        {
          index: 0,
          gpus: 8,
          changes: [
            { atSec: 600, health: "draining" },
            { atSec: 1800, health: "healthy" },
            { atSec: 2400, health: "draining" },
          ],
        },
        {
          index: 1,
          gpus: 8,
          changes: [
            { atSec: 600, health: "draining" },
            { atSec: 1500, health: "down" },
          ],
        },
      ],
      untilSec: H,
    });
    // Node 0: 0-1200 and 1800-3000; node 1: 0-1500.
    expect(rows.map((r) => r.healthyCapacityGpuSec)).toEqual([8 * 1200 + 8 * 1200 + 8 * 1500]);
  });

  it("takes the share in force at each hour's start (a change mid-hour applies from the next)", () => {
    const epochs = buildTreeEpochs(shapes, [
      ...equalWeights,
      { nodeId: "a", atSec: 1800, weight: 3 },
    ]);
    const rows = computeHourlyRollups({ ...input, epochs });
    expect(rows.map((r) => [r.budgetId, r.hourStartSec, r.effectiveShare])).toEqual([
      ["a", 0, 0.5],
      ["b", 0, 0.5],
      ["a", H, 0.75],
      ["b", H, 0.25],
    ]);
  });

  it("keeps an idle hour's capacity on a root row, and a leaf not in the tree gets share 0", () => {
    const rows = computeHourlyRollups({
      ...input,
      fromSec: 2 * H + 10,
      untilSec: 4 * H,
      jobs: [
        {
          id: "j",
          budgetId: "gone",
          gpus: 1,
          minRuntimeSec: 60,
          submitSec: 3 * H,
          endSec: 3 * H + 60,
        },
      ],
      runs: [],
      nodes: [{ index: 0, gpus: 8, changes: [] }],
    });
    expect(rows).toEqual([
      row({
        budgetId: "r",
        hourStartSec: 2 * H,
        healthyCapacityGpuSec: 28_800,
        effectiveShare: 1,
      }),
      row({
        budgetId: "gone",
        hourStartSec: 3 * H,
        demandGpuSec: 60,
        healthyCapacityGpuSec: 28_800,
        effectiveShare: 0,
      }),
    ]);
  });

  it("gives bit-identical rows for the same facts in any order and fractional seconds", () => {
    const fractional: RollupInput = {
      ...input,
      untilSec: 2 * H + 0.123,
      jobs: input.jobs.map((job, i) => ({ ...job, submitSec: job.submitSec + 0.001 * (i + 1) })),
      runs: input.runs.map((run, i) => ({ ...run, startSec: run.startSec + 0.007 * (i + 1) })),
    };
    const reversed: RollupInput = {
      ...fractional,
      jobs: [...fractional.jobs].reverse(),
      runs: [...fractional.runs].reverse(),
      nodes: [...fractional.nodes].reverse(),
    };
    expect(computeHourlyRollups(reversed)).toEqual(computeHourlyRollups(fractional));
  });

  it("returns nothing for an empty range", () => {
    expect(computeHourlyRollups({ ...input, fromSec: H, untilSec: H })).toEqual([]);
  });
});
