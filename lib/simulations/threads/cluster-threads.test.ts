import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { SEMI_SPACE_MB } from "../../../bin/node-flags.mjs";
import {
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
} from "../../sim";
import { generateLabScenario } from "../../demo/lab-workload";
import type { ReplayProgress } from "../cluster-tasks";
import { packOutcome } from "../run-scenario";
import { runAndPackReplays, runReplays, startClusterThreads } from "./cluster-threads";

function load(input: unknown): Scenario {
  const result = parseScenario(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const CLUSTERS = [
  { name: "big", gpuType: "H100", nodes: 12, gpusPerNode: 8 },
  { name: "mid", gpuType: "B200", nodes: 8, gpusPerNode: 8 },
  { name: "small", gpuType: "B300", nodes: 4, gpusPerNode: 8 },
];

describe("runReplays (clusters in worker threads)", () => {
  it("gives exactly runSimulation's results, at most `concurrency` threads at once", async () => {
    const scenario = load(generateLabScenario({ days: 2, seed: 5, clusters: CLUSTERS }));
    let alive = 0;
    let mostAlive = 0;
    let spawned = 0;
    const youngGenerationsMb: (number | undefined)[] = [];
    const snapshots: ReplayProgress[] = [];
    const [baseline, allocation] = await runReplays(
      [
        { scenario, scheduler: "baseline" },
        { scenario, scheduler: "allocation" },
      ],
      {
        concurrency: 2,
        onProgress: (progress) => snapshots.push(progress),
        onSpawn(worker) {
          spawned += 1;
          mostAlive = Math.max(mostAlive, ++alive);
          worker.once("exit", () => (alive -= 1));
          // As the thread was started (ADR 021); a process started with a size of its own
          // would size its threads instead.
          worker.once("online", () => {
            youngGenerationsMb.push(worker.resourceLimits?.maxYoungGenerationSizeMb);
          });
        },
      },
    );
    expect(baseline).toStrictEqual(runSimulation(scenario, SCHEDULERS.baseline));
    expect(allocation).toStrictEqual(runSimulation(scenario, SCHEDULERS.allocation));
    // Two threads, three clusters each: a thread takes task after task.
    expect(spawned).toBe(2);
    expect(mostAlive).toBe(2);
    expect(youngGenerationsMb).toEqual([3 * SEMI_SPACE_MB, 3 * SEMI_SPACE_MB]);
    const overall = snapshots.map((snapshot) => snapshot.overall);
    expect(overall).toEqual([...overall].sort((a, b) => a - b));
    expect(snapshots.at(-1)).toEqual({ fractions: [1, 1], overall: 1, running: [] });
  }, 30_000);

  it("takes threads started beforehand, one that died before its task aside, and stops the rest", async () => {
    const scenario = load(generateLabScenario({ days: 1, seed: 6, clusters: CLUSTERS }));
    const started = startClusterThreads(3);
    await started.workers[0]!.terminate(); // died while the scenario was being built
    const used: Worker[] = [];
    const [allocation] = await runReplays([{ scenario, scheduler: "allocation" }], {
      concurrency: 1,
      threads: started,
      onSpawn: (worker) => used.push(worker),
    });
    expect(allocation).toStrictEqual(runSimulation(scenario, SCHEDULERS.allocation));
    expect(used).toEqual([started.workers[1]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.workers.map((worker) => worker.threadId)).toEqual([-1, -1, -1]);
  }, 30_000);

  it("on a thread's failure stops the others before they finish and leaves none running", async () => {
    const clusters = [{ name: "h100", gpuType: "H100", nodes: 128, gpusPerNode: 8 }];
    const scenario = load(generateLabScenario({ days: 14, seed: 3, clusters }));
    const workers: Worker[] = [];
    let last: ReplayProgress | null = null;
    await expect(
      runReplays(
        [
          { scenario, scheduler: "allocation" },
          { scenario, scheduler: "nope" as SchedulerName },
        ],
        {
          concurrency: 2,
          onProgress: (progress) => (last = progress),
          onSpawn: (worker) => workers.push(worker),
        },
      ),
    ).rejects.toThrow('No scheduler "nope".');
    expect(workers).toHaveLength(2);
    // threadId is -1 once a thread has stopped; the long replay never posted its outcome.
    expect(workers.map((worker) => worker.threadId)).toEqual([-1, -1]);
    expect((last as ReplayProgress | null)?.fractions[0] ?? 0).toBeLessThan(1);
  }, 30_000);

  it("packs each replay as packOutcome does, of one cluster with its thread, of several here", async () => {
    const several = load(generateLabScenario({ days: 1, seed: 7, clusters: CLUSTERS }));
    const one = load(generateLabScenario({ days: 1, seed: 8, clusters: CLUSTERS.slice(0, 1) }));
    const replays = [
      { scenario: several, scheduler: "allocation" as const },
      { scenario: one, scheduler: "allocation" as const },
      { scenario: one, scheduler: "baseline" as const },
    ];
    const snapshots: ReplayProgress[] = [];
    const timelines: [number, Uint8Array][] = [];
    const packed = await runAndPackReplays(replays, {
      concurrency: 2,
      onProgress: (progress) => snapshots.push(progress),
      onTimeline: (replay, timelineJson) => timelines.push([replay, timelineJson]),
    });
    const expected = await Promise.all(
      replays.map(({ scenario, scheduler }) =>
        packOutcome(scenario, runSimulation(scenario, SCHEDULERS[scheduler])),
      ),
    );
    expect(packed).toStrictEqual(expected);
    expect(timelines.sort(([a], [b]) => a - b)).toStrictEqual(
      expected.map((outcome, replay) => [replay, outcome.timelineJson]),
    );
    expect(snapshots.at(-1)).toEqual({ fractions: [1, 1, 1], overall: 1, running: [] });
  }, 30_000);
});
