import { describe, expect, it } from "vitest";
import { runSchedulePass } from "./schedule-pass";
import { createStandingRuns } from "./standing-runs";
import { buildTree, makeCluster, makeJob, makeRun } from "./test-helpers";

const tree = buildTree({ name: "lab", children: [{ name: "a" }, { name: "b" }] });

describe("standing runs", () => {
  it("decide as the list of runs after many come and go, and keep the order they came in", () => {
    const cluster = makeCluster(4, 8, { 3: "down" });
    const runs = createStandingRuns(cluster.nodes);
    const kept = [];
    for (let i = 0; i < 200; i += 1) {
      const run = makeRun(`r${i}`, i % 2 ? "a" : "b", [{ node: Math.floor(i / 10) % 4, gpus: 1 }], {
        startSec: i,
        protectedUntilSec: i % 3 ? i + 10_000 : i,
      });
      runs.add(run);
      // Most runs end again; gaps are dropped along the way.
      if (i % 10 === 0) kept.push(run);
      else runs.remove(run.id);
    }
    expect(runs.size).toBe(kept.length);
    const input = {
      cluster,
      nowSec: 5000,
      tree,
      leafUsage: { a: 10, b: 0 },
      pending: [makeJob("wide", "b", 8), makeJob("small", "a", 2)],
    };
    const fromList = runSchedulePass({ ...input, runs: kept });
    expect(runSchedulePass({ ...input, runs })).toEqual(fromList);
    // The runs on the down node end first, in the order they were added.
    expect(fromList.preemptions.filter((p) => p.reason.rule === "preempt-node-down")).toEqual(
      kept
        .filter((run) => run.placement[0]!.node === 3)
        .map((run) => expect.objectContaining({ runId: run.id })),
    );
  });

  it("refuses a run twice, a run on an unknown node, and nodes other than its own", () => {
    const cluster = makeCluster(2);
    const runs = createStandingRuns(cluster.nodes);
    runs.add(makeRun("r1", "a", [{ node: 0, gpus: 4 }]));
    expect(() => runs.add(makeRun("r1", "a", [{ node: 1, gpus: 4 }]))).toThrow(/already/);
    expect(() => runs.add(makeRun("r2", "a", [{ node: 7, gpus: 4 }]))).toThrow(/unknown node 7/);
    runs.remove("nobody");
    expect(runs.size).toBe(1);
    const other = makeCluster(3);
    expect(() =>
      runSchedulePass({ cluster: other, nowSec: 0, tree, leafUsage: {}, runs, pending: [] }),
    ).toThrow(/standing runs/);
  });

  it("see a node's health change between passes, whether the node is replaced or edited", () => {
    const cluster = makeCluster(2, 8);
    const list = [
      makeRun("old", "a", [{ node: 0, gpus: 8 }], { protectedUntilSec: 0 }),
      makeRun("other", "b", [{ node: 1, gpus: 4 }], { protectedUntilSec: 0 }),
    ];
    const runs = createStandingRuns(cluster.nodes);
    for (const run of list) runs.add(run);
    const input = { nowSec: 100, tree, leafUsage: { a: 5, b: 5 }, pending: [] };
    const pass = () => runSchedulePass({ ...input, cluster, runs });
    const expected = () => runSchedulePass({ ...input, cluster, runs: list });
    expect(pass().preemptions).toEqual([]);
    // A new node object, as the simulator gives it.
    cluster.nodes[0] = { ...cluster.nodes[0]!, health: "draining" };
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["old"]);
    // The same object, edited in place: node-down preemptions come before drain ones.
    (cluster.nodes[1] as { health: string }).health = "down";
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["other", "old"]);
  });
});
