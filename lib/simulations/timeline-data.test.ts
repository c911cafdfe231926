import { describe, expect, it } from "vitest";
import {
  buildTimeline,
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type JobRecord,
  type RunRecord,
  type Scenario,
  type SimulationResult,
} from "../sim";
import { generateLabScenario } from "../demo/lab-workload";
import {
  describeRunComparison,
  describeRunReason,
  encodeTimeline,
  listComparisons,
} from "./timeline-data";
import {
  END_REASONS,
  type TimelineComparison,
  type TimelineData,
  type TimelineEndReason,
} from "./timeline-format";

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
  const comparisons = new Map<string, TimelineComparison | null>();
  for (const segment of timeline.segments) {
    if (segment.endSec <= segment.startSec) continue;
    const text = describeRunReason(reasonByRun.get(segment.runId));
    if (text !== null && !comparisons.has(text)) {
      comparisons.set(text, describeRunComparison(reasonByRun.get(segment.runId)));
    }
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
    ...listComparisons(reasons.list, comparisons),
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
      if (scheduler === "allocation") {
        expect(timeline.reasons.length).toBeGreaterThan(0);
        // Every preemption for rank in the hover shows the comparison that decided it.
        timeline.reasons.forEach((text, i) => {
          if (text.includes("ranks above")) expect(timeline.comparisonOfReason?.[i]).not.toBe(-1);
        });
      }
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

describe("describeRunComparison", () => {
  const preemption = {
    rule: "preempt-for-rank",
    atSec: 0,
    victim: { id: "r", path: "language/riley", rank: 3, usageRatio: 1.85 },
    victimStartSec: 0,
    protectedUntilSec: 0,
    preemptor: {
      jobId: "j",
      budget: { id: "d", path: "vision/dana", rank: 2, usageRatio: 2.76 },
      gpus: 8,
    },
    outcome: "requeued",
  };

  it("where the paths part above the leaves, then the leaves", () => {
    const parting = {
      higher: { path: "vision", usageRatio: 0.92 },
      lower: { path: "language", usageRatio: 1.3 },
    };
    expect(describeRunComparison({ ...preemption, parting })).toEqual([
      { higher: "vision", higherRatio: 0.92, lower: "language", lowerRatio: 1.3 },
      { higher: "vision/dana", higherRatio: 2.76, lower: "language/riley", lowerRatio: 1.85 },
    ]);
  });

  it("siblings (or no parting): the leaves only; other reasons: none", () => {
    const leaves = [
      { higher: "vision/dana", higherRatio: 2.76, lower: "language/riley", lowerRatio: 1.85 },
    ];
    expect(describeRunComparison({ ...preemption, parting: null })).toEqual(leaves);
    expect(
      describeRunComparison({
        ...preemption,
        parting: {
          higher: { path: "vision/dana", usageRatio: 2.76 },
          lower: { path: "language/riley", usageRatio: 1.85 },
        },
      }),
    ).toEqual(leaves);
    expect(describeRunComparison({ rule: "preempt-drain", atSec: 0, node: 1 })).toBeNull();
    expect(describeRunComparison({ rule: "baseline-priority" })).toBeNull();
  });
});
