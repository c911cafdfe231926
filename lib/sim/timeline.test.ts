import { describe, expect, it } from "vitest";
import type { JobRecord, RunRecord, SimulationResult } from "./sim-types";
import { buildTimeline } from "./timeline";

function run(
  jobId: string,
  cluster: string,
  startSec: number,
  endSec: number,
  placement: { node: number; gpus: number }[],
): RunRecord {
  return {
    runId: `${jobId}#1`,
    jobId,
    cluster,
    budgetId: "lab/a",
    startSec,
    endSec,
    placement,
    gpus: placement.reduce((sum, slice) => sum + slice.gpus, 0),
    isAllocated: true,
    protectedUntilSec: startSec,
    endReason: "completed",
  };
}

function result(runs: RunRecord[]): SimulationResult {
  const jobs = runs.map((r) => ({ runs: [r] }) as unknown as JobRecord);
  return { scheduler: "allocation", horizonSec: 100, jobs, clusters: [] };
}

const held = (r: SimulationResult) =>
  buildTimeline(r).segments.map(
    (s) => `${s.cluster}/${s.node} ${s.jobId} ${s.startSec}-${s.endSec} [${s.gpus.join(",")}]`,
  );

describe("buildTimeline", () => {
  it("orders segments by cluster name, node, start and first GPU, whatever the run order", () => {
    const timeline = held(
      result([
        run("late", "b", 10, 20, [{ node: 0, gpus: 2 }]),
        run("wide", "b", 0, 30, [
          { node: 1, gpus: 2 },
          { node: 0, gpus: 1 },
        ]),
        run("first", "a", 5, 6, [{ node: 2, gpus: 1 }]),
      ]),
    );
    expect(timeline).toEqual([
      "a/2 first 5-6 [0]",
      "b/0 wide 0-30 [0]",
      "b/0 late 10-20 [1,2]",
      "b/1 wide 0-30 [0,1]",
    ]);
  });

  it("frees GPUs at an end before a start at the same moment, lowest index first", () => {
    const timeline = held(
      result([
        run("x", "c", 0, 10, [{ node: 0, gpus: 2 }]),
        run("y", "c", 0, 20, [{ node: 0, gpus: 1 }]),
        run("z", "c", 10, 15, [{ node: 0, gpus: 3 }]),
      ]),
    );
    expect(timeline).toEqual(["c/0 x 0-10 [0,1]", "c/0 y 0-20 [2]", "c/0 z 10-15 [0,1,3]"]);
  });

  it("gives an instant run GPUs without holding them (edge: starts at another run's start)", () => {
    const timeline = held(
      result([
        run("instant", "c", 5, 5, [{ node: 0, gpus: 1 }]),
        run("long", "c", 5, 9, [{ node: 0, gpus: 1 }]),
      ]),
    );
    expect(timeline).toEqual(["c/0 instant 5-5 [0]", "c/0 long 5-9 [0]"]);
  });
});
