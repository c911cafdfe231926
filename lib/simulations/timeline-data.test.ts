import { describe, expect, it } from "vitest";
import {
  buildTimeline,
  generateLabScenario,
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type JobRecord,
  type RunRecord,
  type Scenario,
  type SimulationResult,
} from "../sim";
import { describeRunReason, encodeTimeline } from "./timeline-data";
import { END_REASONS, type TimelineData, type TimelineEndReason } from "./timeline-format";

/** The timeline as first encoded: lib/sim buildTimeline's segments, one after the other. */
function referenceTimeline(scenario: Scenario, result: SimulationResult): TimelineData {
  const timeline = buildTimeline(result);
  const reasonByRun = new Map<string, unknown>();
  for (const record of result.jobs) {
    for (const run of record.runs) {
      if (run.reason !== undefined) reasonByRun.set(run.runId, run.reason);
    }
  }
  const listed = () => {
    const list: string[] = [];
    return {
      list,
      indexOf: (text: string) =>
        (list.includes(text) ? list : (list.push(text), list)).indexOf(text),
    };
  };
  const [budgets, jobs, reasons] = [listed(), listed(), listed()];
  const segments: number[] = [];
  for (const segment of timeline.segments) {
    if (segment.endSec <= segment.startSec) continue;
    const text = describeRunReason(reasonByRun.get(segment.runId));
    segments.push(
      scenario.clusters.findIndex((cluster) => cluster.name === segment.cluster),
      segment.node,
      segment.gpus.reduce((mask, gpu) => mask + 2 ** gpu, 0),
      segment.startSec,
      segment.endSec,
      jobs.indexOf(segment.jobId),
      budgets.indexOf(segment.budget),
      (segment.allocated ? 1 : 0) |
        (END_REASONS.indexOf(segment.endReason as TimelineEndReason) << 1),
      text === null ? -1 : reasons.indexOf(text),
    );
  }
  return {
    scheduler: timeline.scheduler,
    horizonSec: timeline.horizonSec,
    clusters: scenario.clusters.map(({ name, nodes, gpusPerNode }) => ({
      name,
      nodes,
      gpusPerNode,
    })),
    budgets: budgets.list,
    jobs: jobs.list,
    reasons: reasons.list,
    segments,
  };
}

function load(input: unknown): Scenario {
  const parsed = parseScenario(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

describe("encodeTimeline (columnar, from the runs)", () => {
  // Clusters listed out of name order: segments come by cluster name, indexes by scenario order.
  const scenario = load(
    generateLabScenario({
      days: 2,
      seed: 11,
      clusters: [
        { name: "h100", gpuType: "H100", nodes: 5, gpusPerNode: 8 },
        { name: "b200", gpuType: "B200", nodes: 4, gpusPerNode: 8 },
      ],
    }),
  );

  it.each(["baseline", "allocation"] as const)(
    "%s: the same timeline as buildTimeline's segments give",
    (scheduler) => {
      const result = runSimulation(scenario, SCHEDULERS[scheduler]);
      const timeline = encodeTimeline(scenario, result);
      expect(timeline).toStrictEqual(referenceTimeline(scenario, result));
      expect(timeline.segments.length / 9).toBeGreaterThan(50);
      if (scheduler === "allocation") expect(timeline.reasons.length).toBeGreaterThan(0);
    },
  );

  it("assigns GPUs at ties and zero-length runs as buildTimeline does (edge)", () => {
    const tiny = load({
      clusters: [{ name: "c", gpuType: "H100", nodes: 2, gpusPerNode: 4 }],
      tree: {
        name: "org",
        children: [
          { name: "a", weight: 1 },
          { name: "b", weight: 1 },
        ],
      },
      jobs: [],
    });
    let id = 0;
    const run = (
      jobId: string,
      startSec: number,
      endSec: number,
      placement: { node: number; gpus: number }[],
      endReason: RunRecord["endReason"] = "completed",
      reason?: unknown,
    ): RunRecord => ({
      runId: `r${id++}`,
      jobId,
      cluster: "c",
      budgetId: jobId === "j2" ? "b" : "a",
      startSec,
      endSec,
      placement,
      gpus: placement.reduce((sum, slice) => sum + slice.gpus, 0),
      isAllocated: jobId !== "j3",
      protectedUntilSec: startSec,
      endReason,
      ...(reason === undefined ? {} : { reason }),
    });
    const runs = [
      run("j1", 0, 10, [{ node: 0, gpus: 2 }]),
      run("j2", 10, 10, [{ node: 0, gpus: 1 }]), // zero-length, at the moment j1 ends
      run("j2", 10, 20, [{ node: 0, gpus: 3 }], "preempted", {
        rule: "baseline-priority",
        byJobId: "j3",
        byPriority: "high",
        victimPriority: "normal",
      }),
      run(
        "j3",
        5,
        30,
        [
          { node: 1, gpus: 4 },
          { node: 0, gpus: 1 },
        ],
        "running",
      ),
      run("j1", 20, 25, [{ node: 0, gpus: 3 }], "node-down"),
    ];
    const result: SimulationResult = {
      scheduler: "baseline",
      horizonSec: 30,
      jobs: ["j3", "j1", "j2"].map(
        (jobId) => ({ runs: runs.filter((r) => r.jobId === jobId) }) as JobRecord,
      ),
      clusters: [],
    };
    const timeline = encodeTimeline(tiny, result);
    expect(timeline).toStrictEqual(referenceTimeline(tiny, result));
    expect(timeline.segments.length / 9).toBe(5); // the zero-length run left out
    expect(timeline.reasons).toHaveLength(1);
  });
});
