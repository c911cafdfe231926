import { describe, expect, it } from "vitest";
import {
  buildReport,
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type BudgetSummary,
  type Scenario,
  type SimJob,
  type SimulationReport,
} from "../../lib/sim";
import { generateLabScenario } from "../../lib/demo/lab-workload";
import { describeDemand } from "./demand-table";
import { formatMarkdownTable } from "./markdown";
import { breakDownUnmet } from "./unmet-hours";
import {
  computeUtilisationUntil,
  formatBudgetTable,
  formatWaitTable,
  groupBudgets,
  groupFulfilment,
} from "./report-tables";

function budget(path: string, fields: Partial<BudgetSummary>): BudgetSummary {
  return {
    path,
    effectiveShare: 0,
    entitledGpuHours: 0,
    receivedGpuHours: 0,
    allocatedGpuHours: 0,
    unallocatedGpuHours: 0,
    fulfilment: null,
    hourlyFulfilment: null,
    preemptions: 0,
    workConservingGpuHours: 0,
    workConservingFulfilment: null,
    ...fields,
  };
}

function report(scheduler: string, budgets: BudgetSummary[]): SimulationReport {
  return {
    scheduler,
    horizonSec: 7200,
    utilisation: 0.5,
    unallocatedShare: 0,
    fulfilment: 0.5,
    hourlyFulfilment: 0.5,
    workConservingFulfilment: 0.5,
    preemptions: 0,
    automatedDrains: 0,
    classes: { debug: { jobs: 2, waitP50Sec: 30, waitP90Sec: 5400 } },
    budgets,
    jobs: [
      {
        id: "j1",
        state: "completed",
        waitSec: 0,
        queuedSec: 0,
        preemptions: 0,
        runs: [
          {
            startSec: 0,
            endSec: 7200,
            nodes: [0],
            gpus: 4,
            allocated: true,
            protectedUntilSec: 3600,
            endReason: "completed",
          },
        ],
      },
    ],
  };
}

function job(id: string, fields: Partial<SimJob>): SimJob {
  return {
    id,
    budgetId: "lm/pretrain/alice",
    cluster: "h100",
    userId: "alice",
    submitSec: 0,
    gpus: 1,
    workSec: 3600,
    minRuntimeSec: 600,
    isResumable: true,
    priority: "normal",
    jobClass: "training",
    baselinePriority: "normal",
    isBaselinePreemptible: true,
    ...fields,
  };
}

const LEAVES = [
  budget("lm/pretrain/alice", {
    effectiveShare: 0.25,
    entitledGpuHours: 10,
    receivedGpuHours: 4,
    fulfilment: 0.4,
    preemptions: 1,
  }),
  budget("lm/pretrain/bob", {
    effectiveShare: 0.25,
    entitledGpuHours: 30,
    receivedGpuHours: 40,
    unallocatedGpuHours: 5,
    fulfilment: 0.8,
    preemptions: 2,
  }),
  budget("vision", { effectiveShare: 0.5 }),
];

describe("sim-tables", () => {
  it("sums leaves to a path depth, in decreasing share then path, fulfilment weighted by entitled hours", () => {
    const [pretrain, vision] = groupBudgets(LEAVES, 2); // equal shares: by path
    expect(vision?.path).toBe("vision");
    expect(pretrain).toEqual({
      path: "lm/pretrain",
      effectiveShare: 0.5,
      entitledGpuHours: 40,
      receivedGpuHours: 44,
      unallocatedGpuHours: 5,
      fulfilledGpuHours: 4 + 24,
      preemptions: 3,
    });
    expect(groupFulfilment(pretrain!)).toBe(0.7);
    expect(groupFulfilment(vision!)).toBeNull();
  });

  it("counts only the part of a run before the cut-off for utilisation", () => {
    // 4 GPUs busy for the first hour of 8 GPUs x 1 h.
    expect(computeUtilisationUntil(report("a", []), 8, 3600)).toBe(0.5);
    expect(computeUtilisationUntil(report("a", []), 8, 0)).toBe(0);
  });

  it("pads markdown tables the way Prettier does, numbers right-aligned", () => {
    expect(formatMarkdownTable(["a", "bb"], [["xyzw", "1"]], ["left", "right"])).toBe(
      "| a    |  bb |\n| ---- | --: |\n| xyzw |   1 |\n",
    );
  });

  it("prints both schedulers' waits and per-project rows side by side", () => {
    const both = { baseline: report("baseline", LEAVES), allocation: report("allocation", LEAVES) };
    expect(formatWaitTable(both).split("\n")[2]).toBe(
      "| debug |    2 |          30s |       1h 30m |            30s |         1h 30m |",
    );
    const pretrainRow = formatBudgetTable(both, 2)
      .split("\n")
      .find((line) => line.startsWith("| lm/pretrain"));
    expect(pretrainRow?.replace(/ +/g, " ")).toBe(
      "| lm/pretrain | 50.00% | 40 | 44 | 70.0% | 3 | 40 | 44 (5) | 70.0% | 3 |",
    );
  });

  it("measures demand in jobs larger than the leaf's share of their cluster and with min runtime 0", () => {
    const scenario: Pick<Scenario, "clusters" | "jobs"> = {
      clusters: [{ name: "h100", gpuType: "H100", nodes: 2, gpusPerNode: 8 }],
      // alice's share of 16 GPUs is 4: a 8-GPU job is above it, a 4-GPU job is not.
      jobs: [
        job("big", { gpus: 8, workSec: 7200 }),
        job("fits", { gpus: 4 }),
        job("scavenger", { gpus: 2, minRuntimeSec: 0 }),
      ],
    };
    const [pretrain, vision] = describeDemand(scenario, LEAVES, 2);
    expect(vision).toMatchObject({ path: "vision", askedGpuHours: 0 });
    expect(pretrain).toEqual({
      path: "lm/pretrain",
      effectiveShare: 0.5,
      askedGpuHours: 16 + 4 + 2,
      aboveShareGpuHours: 16,
      minRuntimeZeroGpuHours: 2,
      largestJobGpus: 8,
    });
  });

  it("splits unmet hourly entitlement by busy hours, lookback share and who held the GPUs", () => {
    // One 8-GPU node, a and b half each, a 1-hour lookback. a runs 8 GPUs for 2 h (protected in
    // the first); b waits for 4 GPUs throughout, so it is short 4 GPU-h in each hour.
    const scenario = {
      clusters: [{ name: "c", gpuType: "H100", nodes: 1, gpusPerNode: 8 }],
      nodeEvents: [],
      lookbackSec: 3600,
      jobs: [
        job("a1", { budgetId: "a", cluster: "c", gpus: 8, workSec: 7200 }),
        job("b1", { budgetId: "b", cluster: "c", gpus: 4, workSec: 3600 }),
      ],
    };
    const run = { nodes: [0], gpus: 8, allocated: true, endReason: "completed" };
    const result = breakDownUnmet(scenario, {
      horizonSec: 7200,
      budgets: [budget("a", { effectiveShare: 0.5 }), budget("b", { effectiveShare: 0.5 })],
      jobs: [
        {
          id: "a1",
          state: "completed",
          waitSec: 0,
          queuedSec: 0,
          preemptions: 0,
          runs: [{ ...run, startSec: 0, endSec: 7200, protectedUntilSec: 3600 }],
        },
        { id: "b1", state: "pending", waitSec: null, queuedSec: 7200, preemptions: 0, runs: [] },
      ],
    });
    expect(result).toEqual({
      entitledGpuHours: 16,
      unmetGpuHours: 8,
      unmetWhenBusyGpuHours: 8,
      // In the second hour a has used all 8 GPUs of the last hour, above its 4.
      entitledAboveWindowShareGpuHours: 4,
      unmetAboveWindowShareGpuHours: 0,
      overShareUnallocatedGpuHours: 0,
      overShareCatchingUpGpuHours: 4,
      overShareAheadGpuHours: 4,
      overShareProtectedGpuHours: 4,
    });
  });

  it("recomputes the report's hourly fulfilment, drained nodes out of service (ADR 099)", () => {
    // A generated lab of 4 days on 6 nodes; node 2 drains for a day, node 4 drains and goes down.
    const file = generateLabScenario({
      days: 4,
      seed: 1,
      clusters: [{ name: "c", gpuType: "H100", nodes: 6, gpusPerNode: 8 }],
    });
    const parsed = parseScenario({
      ...file,
      nodeEvents: [
        { at: "1d", cluster: "c", node: 2, state: "draining" },
        { at: "2d", cluster: "c", node: 2, state: "healthy" },
        { at: "60h", cluster: "c", node: 4, state: "draining" },
        { at: "70h", cluster: "c", node: 4, state: "down" },
        { at: "80h", cluster: "c", node: 4, state: "healthy" },
      ],
    });
    if (!parsed.ok) throw new Error("the scenario does not parse");
    const scenario = parsed.value;
    for (const name of ["allocation", "baseline"] as const) {
      const report = buildReport(scenario, runSimulation(scenario, SCHEDULERS[name]));
      const result = breakDownUnmet(scenario, report);
      const hourly = (result.entitledGpuHours - result.unmetGpuHours) / result.entitledGpuHours;
      expect(hourly).toBeCloseTo(report.hourlyFulfilment!, 4);
    }
  });
});
