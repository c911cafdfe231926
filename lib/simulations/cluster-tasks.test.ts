import { describe, expect, it } from "vitest";
import { parseScenario, type Scenario } from "../sim";
import { createProgressTracker, describeProgress, planClusterTasks } from "./cluster-tasks";

function scenarioOf(jobsByCluster: Record<string, number>, horizon?: string): Scenario {
  const clusters = [
    { name: "small", gpuType: "B300", nodes: 1, gpusPerNode: 8 },
    { name: "big", gpuType: "H100", nodes: 4, gpusPerNode: 8 },
    { name: "idle", gpuType: "B200", nodes: 2, gpusPerNode: 8 },
  ];
  const jobs = Object.entries(jobsByCluster).flatMap(([cluster, count]) =>
    Array.from({ length: count }, (_, i) => ({
      id: `${cluster}-${i}`,
      budget: "team",
      user: "ana",
      cluster,
      gpus: 1,
      submit: `${i}h`,
      work: "1h",
      minRuntime: "1h",
    })),
  );
  const parsed = parseScenario({
    tree: { name: "lab", children: [{ name: "team", weight: 1 }] },
    clusters,
    jobs,
    ...(horizon ? { horizon } : {}),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

describe("planClusterTasks", () => {
  it("one task per cluster of each replay, largest (GPUs x jobs) first, ties in replay order", () => {
    const scenario = scenarioOf({ small: 10, big: 3 });
    const tasks = planClusterTasks([
      { scenario, scheduler: "allocation" },
      { scenario, scheduler: "baseline" },
    ]);
    expect(tasks).toEqual([
      { replay: 0, cluster: "big", size: 96 },
      { replay: 1, cluster: "big", size: 96 },
      { replay: 0, cluster: "small", size: 80 },
      { replay: 1, cluster: "small", size: 80 },
      { replay: 0, cluster: "idle", size: 0 },
      { replay: 1, cluster: "idle", size: 0 },
    ]);
  });
});

describe("createProgressTracker", () => {
  it("weights each cluster by its size and holds a running cluster below 1", () => {
    const scenario = scenarioOf({ small: 10, big: 3 }, "10h");
    const replays = [
      { scenario, scheduler: "allocation" as const },
      { scenario, scheduler: "baseline" as const },
    ];
    const tasks = planClusterTasks(replays);
    const tracker = createProgressTracker(replays, tasks);
    expect(tracker.snapshot()).toEqual({ fractions: [0, 0], overall: 0, running: [] });
    tracker.update(0, 5 * 3600); // replay 0, big: half of the 10 h horizon
    tracker.update(2, 40 * 3600); // replay 0, small: past the horizon, held at 0.99
    const weights = 96 + 80 + 1; // the idle cluster counts once
    const first = (96 * 0.5 + 80 * 0.99) / weights;
    expect(tracker.snapshot().fractions[0]).toBeCloseTo(first, 12);
    expect(tracker.snapshot().fractions[1]).toBe(0);
    expect(tracker.snapshot().overall).toBeCloseTo(first / 2, 12);
    expect(tracker.snapshot().running).toEqual([
      // With a horizon, a clock past it is not "finishing": the replay stops there.
      { replay: 0, cluster: "big", nowSec: 18_000, isFinishing: false },
      { replay: 0, cluster: "small", nowSec: 144_000, isFinishing: false },
    ]);
    for (const task of [0, 2, 4]) tracker.finish(task);
    tracker.update(0, 1); // a late clock after the end changes nothing
    expect(tracker.snapshot()).toEqual({ fractions: [1, 0], overall: 0.5, running: [] });
  });

  it("without a horizon, measures a cluster's clock against its last arrival", () => {
    const scenario = scenarioOf({ small: 5, big: 1 });
    const replays = [{ scenario, scheduler: "allocation" as const }];
    const tasks = planClusterTasks(replays);
    expect(tasks.map((task) => task.cluster)).toEqual(["small", "big", "idle"]);
    const tracker = createProgressTracker(replays, tasks);
    tracker.update(0, 2 * 3600); // small: last arrival at 4 h
    expect(tracker.snapshot().fractions[0]).toBeCloseTo((40 * 0.5) / (40 + 32 + 1), 12);
    expect(tracker.snapshot().running[0]!.isFinishing).toBe(false);
    tracker.update(0, 4 * 3600); // at its last arrival: what is left is the queue
    expect(tracker.snapshot().running[0]).toMatchObject({ cluster: "small", isFinishing: true });
  });
});

describe("describeProgress", () => {
  it("gives each replay's percentage and the day of each running cluster", () => {
    const text = describeProgress(
      {
        fractions: [0.4567, 1],
        overall: 0.7,
        running: [
          { replay: 0, cluster: "h100", nowSec: 8.5 * 86_400, isFinishing: false },
          { replay: 0, cluster: "b300", nowSec: 0, isFinishing: false },
        ],
      },
      ["current split", "draft"],
    );
    expect(text).toBe("current split 45% (h100 day 9, b300 day 1) · draft 100%");
  });

  it("says when a cluster is past its last submission and runs out its queue", () => {
    const text = describeProgress(
      {
        fractions: [0.99],
        overall: 0.99,
        running: [{ replay: 0, cluster: "philly", nowSec: 110 * 86_400, isFinishing: true }],
      },
      ["budget"],
    );
    expect(text).toBe("budget 99% (philly day 111, past the last submission, finishing the queue)");
  });
});
