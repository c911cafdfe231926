import { describe, expect, it } from "vitest";
import type { SchedulerSummary, SimulationSummary } from "@/lib/simulations/summary";
import { listResultRows } from "./results-rows";

function scheduler(
  name: string,
  fulfilment: number | null,
  hourlyFulfilment: number | null,
): SchedulerSummary {
  return {
    scheduler: name,
    horizonSec: 86_400,
    utilisation: 0.9,
    unallocatedShare: 0.1,
    fulfilment,
    hourlyFulfilment,
    workConservingFulfilment: null,
    preemptions: 0,
    automatedDrains: 0,
    classes: {},
    budgets: [],
    jobCount: 0,
    completedJobs: 0,
    waitHistogram: {},
  };
}

const summary: SimulationSummary = {
  clusters: [],
  jobCount: 0,
  lookbackSec: 604_800,
  maxMinRuntimeSec: 28_800,
  schedulers: {
    baseline: scheduler("baseline", 0.8, 0.6),
    allocation: scheduler("allocation", 0.95, 0.91),
  },
};

function show(label: string, from: SimulationSummary = summary): string[] {
  const row = listResultRows(from).find((candidate) => candidate.label === label);
  if (!row) throw new Error(`no row "${label}"`);
  return Object.values(from.schedulers).map(row.value);
}

describe("listResultRows", () => {
  it("shows the hour-by-hour fulfilment right after the period figure, under its own name", () => {
    const labels = listResultRows(summary).map((row) => row.label);
    expect(labels.slice(0, 3)).toEqual(["Utilisation", "Fulfilment", "Hour by hour"]);
    expect(show("Fulfilment")).toEqual(["80.0%", "95.0%"]);
    expect(show("Hour by hour")).toEqual(["60.0%", "91.0%"]);
  });

  it("never shows a fulfilment below 1 as 100.0%; exactly 1 is 100.0%", () => {
    const nearlyAll = {
      ...summary,
      schedulers: { allocation: scheduler("allocation", 0.9996, 0.9) },
    };
    expect(show("Fulfilment", nearlyAll)).toEqual(["99.9%"]);
    const all = { ...summary, schedulers: { allocation: scheduler("allocation", 1, 0.9996) } };
    expect(show("Fulfilment", all)).toEqual(["100.0%"]);
    expect(show("Hour by hour", all)).toEqual(["99.9%"]);
  });

  it("shows a dash for a summary stored before the hour-by-hour field existed", () => {
    const { hourlyFulfilment: _dropped, ...old } = scheduler("allocation", 0.95, null);
    const stored = { ...summary, schedulers: { allocation: old as SchedulerSummary } };
    expect(show("Hour by hour", stored)).toEqual(["–"]);
    expect(
      show("Hour by hour", { ...summary, schedulers: { a: scheduler("a", null, null) } }),
    ).toEqual(["–"]);
  });
});
