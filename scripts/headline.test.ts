import { describe, expect, it } from "vitest";
import type { BudgetSummary, SimulationReport } from "../lib/sim";
import { findWorstFunded, judgeRun } from "./headline";

function budget(path: string, effectiveShare: number, fulfilment: number | null): BudgetSummary {
  return {
    path,
    effectiveShare,
    entitledGpuHours: 100,
    receivedGpuHours: (fulfilment ?? 0) * 100,
    allocatedGpuHours: (fulfilment ?? 0) * 100,
    unallocatedGpuHours: 0,
    fulfilment,
    hourlyFulfilment: fulfilment,
    preemptions: 0,
    workConservingGpuHours: 100,
    workConservingFulfilment: fulfilment,
  };
}

type Figures = {
  debugP90Sec: number;
  trainingP50Sec: number;
  utilisation: number;
  fulfilment: number;
  budgets: BudgetSummary[];
};

function report(scheduler: string, figures: Figures): SimulationReport {
  return {
    scheduler,
    horizonSec: 30 * 86_400,
    utilisation: figures.utilisation,
    unallocatedShare: 0,
    fulfilment: figures.fulfilment,
    hourlyFulfilment: figures.fulfilment,
    workConservingFulfilment: figures.fulfilment,
    preemptions: 0,
    automatedDrains: 0,
    classes: {
      debug: { jobs: 10, waitP50Sec: 0, waitP90Sec: figures.debugP90Sec },
      training: { jobs: 10, waitP50Sec: figures.trainingP50Sec, waitP90Sec: 0 },
    },
    budgets: figures.budgets,
    jobs: [],
  };
}

const baseline = report("baseline", {
  debugP90Sec: 7200,
  trainingP50Sec: 3600,
  utilisation: 0.99,
  fulfilment: 0.97,
  budgets: [budget("a", 0.5, 0.95), budget("b", 0.5, 0.6)],
});

describe("judgeRun", () => {
  it("passes a run that meets every target", () => {
    const allocation = report("allocation", {
      debugP90Sec: 120,
      trainingP50Sec: 1800,
      utilisation: 0.985,
      fulfilment: 0.96,
      budgets: [budget("a", 0.5, 1), budget("b", 0.5, 0.92)],
    });
    const row = judgeRun("run", { baseline, allocation });
    expect(row.worstBudget).toEqual({ path: "b", fulfilment: 0.92 });
    expect(row.baselineWorstFulfilment).toBe(0.6);
    expect(row.checks).toEqual({
      "debug p90 <= 10m": true,
      "debug 10x": true,
      "util gap <= 1pt": true,
      "fulfilment >= 95%": true,
      "worst >= 90%": true,
      "worst >= base + 5pt": true,
      ">= base + 5pt": false,
      "training p50": true,
    });
  });

  it("fails each figure that misses its target", () => {
    const allocation = report("allocation", {
      debugP90Sec: 900,
      trainingP50Sec: 7200,
      utilisation: 0.97,
      fulfilment: 0.94,
      budgets: [budget("a", 0.5, 1), budget("b", 0.5, 0.62)],
    });
    const { checks } = judgeRun("run", { baseline, allocation });
    expect(Object.entries(checks).filter(([, ok]) => ok)).toEqual([]);
  });
});

describe("findWorstFunded", () => {
  it("passes over budgets with no share or nothing entitled", () => {
    const budgets = [budget("free", 0, 0.1), budget("idle", 0.2, null), budget("c", 0.3, 0.8)];
    expect(findWorstFunded(report("allocation", { ...baselineFigures(), budgets }))).toEqual({
      path: "c",
      fulfilment: 0.8,
    });
  });
});

function baselineFigures(): Figures {
  return { debugP90Sec: 0, trainingP50Sec: 0, utilisation: 1, fulfilment: 1, budgets: [] };
}
