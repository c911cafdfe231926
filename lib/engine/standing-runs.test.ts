import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPassScratch } from "./pass-scratch";
import { freeGpuBounds } from "./placement";
import { queueFromPending } from "./pending-queue";
import type { PassOutcome } from "./pass-types";
import {
  rankingOf,
  rankLookup,
  runFastPass,
  runSchedulePass,
  type SchedulePassInput,
} from "./schedule-pass";
import { createHoldings } from "./holdings";
import { createStandingRuns, heldByTreeNode, type StandingRuns } from "./standing-runs";
import { countUsableFree } from "./usable-free";
import { buildTree, makeCluster, makeJob, makeRun } from "./test-helpers";
import type { ActiveRun, ClusterNodeState, ClusterSpec, NodeHealth } from "./types";

const tree = buildTree({ name: "lab", children: [{ name: "a" }, { name: "b" }] });

/** A pass on standing runs, the jobs as a list: `runSchedulePass`, the runs kept between passes. */
function outcomeOn(input: Omit<SchedulePassInput, "runs"> & { runs: StandingRuns }): PassOutcome {
  const ranking = rankingOf({ ...input, runs: [] } as SchedulePassInput);
  const queue = queueFromPending(input.pending, input.tree, input.cluster);
  return runFastPass({
    ...input,
    ranking,
    rankOf: rankLookup(ranking),
    runs: input.runs.state,
    queue,
    scratch: createPassScratch(),
  });
}

function passOn(input: Omit<SchedulePassInput, "runs"> & { runs: StandingRuns }) {
  return outcomeOn(input).result;
}

/**
 * Two unprotected runs, of a on node 0 (8 GPUs) and of b on node 1 (4), standing and as a list,
 * and a pass at 100 s on the cluster `clusterNow` gives with each.
 */
function twoUnprotectedRuns(clusterNow: () => ClusterSpec) {
  const list = [
    makeRun("old", "a", [{ node: 0, gpus: 8 }], { protectedUntilSec: 0 }),
    makeRun("other", "b", [{ node: 1, gpus: 4 }], { protectedUntilSec: 0 }),
  ];
  const runs = createStandingRuns(clusterNow().nodes);
  for (const run of list) runs.add(run);
  const input = { nowSec: 100, tree, leafUsage: { a: 5, b: 5 }, pending: [] };
  const pass = () => passOn({ ...input, cluster: clusterNow(), runs });
  const expected = () => runSchedulePass({ ...input, cluster: clusterNow(), runs: list });
  return { list, runs, pass, expected };
}

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
    expect(passOn({ ...input, runs })).toEqual(fromList);
    // The runs on the down node end first, in the order they were added.
    expect(fromList.preemptions.filter((p) => p.reason.rule === "preempt-node-down")).toEqual(
      kept
        .filter((run) => run.placement[0]!.node === 3)
        .map((run) => expect.objectContaining({ runId: run.id })),
    );
  });

  it("keep their holdings on each budget tree asked for as runs come and go", () => {
    const deep = buildTree({
      name: "lab",
      children: [{ name: "p", children: [{ name: "a" }, { name: "c" }] }, { name: "b" }],
    });
    const cluster = makeCluster(4, 8);
    const runs = createStandingRuns(cluster.nodes);
    const state = runs.state;
    const standing: ActiveRun[] = [];
    // Leaves of either tree, and one of neither (held nowhere); unallocated runs hold nothing.
    const budgets = ["a", "b", "p/a", "p/c", "gone"];
    for (let i = 0; i < 60; i += 1) {
      const run = makeRun(`r${i}`, budgets[i % 5]!, [{ node: i % 4, gpus: 1 }], {
        isAllocated: i % 7 !== 0,
      });
      runs.add(run);
      standing.push(run);
      if (i % 3 === 0) {
        runs.remove(standing[i >> 1]!.id);
        standing.splice(i >> 1, 1);
      }
      // Asked of one tree, then the other, as runs change: each as if counted afresh.
      const asked = i % 4 < 2 ? tree : deep;
      const allocated = standing.filter((kept) => kept.isAllocated);
      const expected = createHoldings(asked, allocated);
      expect(heldByTreeNode(state, asked)).toEqual(
        asked.nodes.map((node) => expected.heldGpus(node.id)),
      );
    }
  });

  it("refuses a run twice, a run on an unknown node or placed oddly, and other nodes", () => {
    const cluster = makeCluster(2);
    const runs = createStandingRuns(cluster.nodes);
    runs.add(makeRun("r1", "a", [{ node: 0, gpus: 4 }]));
    expect(() => runs.add(makeRun("r1", "a", [{ node: 1, gpus: 4 }]))).toThrow(/already/);
    expect(() => runs.add(makeRun("r2", "a", [{ node: 7, gpus: 4 }]))).toThrow(/unknown node 7/);
    // Placements the engine never makes: a node twice, a slice of no or part of a GPU.
    const twice = makeRun("r3", "a", [
      { node: 1, gpus: 2 },
      { node: 1, gpus: 2 },
    ]);
    expect(() => runs.add(twice)).toThrow(/placed twice on node 1/);
    for (const gpus of [0, -1, 1.5]) {
      const bad = makeRun("r4", "a", [{ node: 1, gpus }]);
      expect(() => runs.add(bad)).toThrow(/positive whole number/);
      // The same run given as a list is refused by the pass.
      expect(() =>
        runSchedulePass({ cluster, nowSec: 0, tree, leafUsage: {}, runs: [bad], pending: [] }),
      ).toThrow(/positive whole number/);
    }
    runs.remove("nobody");
    expect(runs.size).toBe(1);
    const other = makeCluster(3);
    expect(() =>
      passOn({ cluster: other, nowSec: 0, tree, leafUsage: {}, runs, pending: [] }),
    ).toThrow(/standing runs/);
  });

  it("decide as the list again after a pass threw on a node they overfill", () => {
    const cluster = makeCluster(2);
    const runs = createStandingRuns(cluster.nodes);
    const held = [
      makeRun("held", "b", [{ node: 1, gpus: 8 }], { protectedUntilSec: 1e9 }),
      makeRun("ends", "b", [{ node: 0, gpus: 8 }], { protectedUntilSec: 1000 }),
    ];
    for (const run of held) runs.add(run);
    const input = { cluster, tree, leafUsage: { a: 0, b: 100 } };
    passOn({ ...input, nowSec: 2000, runs, pending: [] });
    // A run too many, and a pass earlier in time that sets protections again, then throws.
    runs.add(makeRun("extra", "b", [{ node: 0, gpus: 4 }]));
    expect(() => passOn({ ...input, nowSec: 500, runs, pending: [] })).toThrow(
      /more GPUs than it has/,
    );
    runs.remove("extra");
    // "ends" is unprotected at 2000 again: a's job preempts it, as with the list.
    const pending = [makeJob("job", "a", 4)];
    const fromList = runSchedulePass({ ...input, nowSec: 2000, runs: held, pending });
    expect(fromList.preemptions.map((preemption) => preemption.runId)).toEqual(["ends"]);
    expect(passOn({ ...input, nowSec: 2000, runs, pending })).toEqual(fromList);
  });

  it("see a node's health change between passes, whether the node is replaced or edited", () => {
    const cluster = makeCluster(2, 8);
    const { pass, expected } = twoUnprotectedRuns(() => cluster);
    expect(pass().preemptions).toEqual([]);
    // A new node object in the same array.
    const nodes = cluster.nodes as ClusterNodeState[];
    nodes[0] = { ...nodes[0]!, health: "draining" };
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["old"]);
    // The same object, edited in place: node-down preemptions come before drain ones.
    (nodes[1] as { health: string }).health = "down";
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["other", "old"]);
  });

  it("see a node's health change in a new frozen array of frozen nodes, as the simulator gives it", () => {
    const freeze = (nodes: readonly ClusterNodeState[]): readonly ClusterNodeState[] =>
      Object.freeze(nodes.map((node) => Object.freeze({ ...node })));
    let cluster = makeCluster(2, 8);
    cluster = { ...cluster, nodes: freeze(cluster.nodes) };
    const { list, runs, pass, expected } = twoUnprotectedRuns(() => cluster);
    // The same frozen array twice: known to hold the same nodes.
    expect(pass().preemptions).toEqual([]);
    expect(pass()).toEqual(expected());
    // The free GPUs counted as runs came: for the nodes the last pass saw, and only those.
    expect(runs.freeBounds(cluster.nodes)).toEqual(freeGpuBounds(cluster.nodes, [0, 4]));
    runs.remove("other");
    expect(runs.freeBounds(cluster.nodes)).toEqual(freeGpuBounds(cluster.nodes, [0, 8]));
    runs.add(list[1]!);
    expect(runs.freeBounds([...cluster.nodes])).toBeNull();
    const withHealth = (node: number, health: NodeHealth): readonly ClusterNodeState[] =>
      freeze(cluster.nodes.map((each) => (each.index === node ? { ...each, health } : each)));
    cluster = { ...cluster, nodes: withHealth(0, "draining") };
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["old"]);
    cluster = { ...cluster, nodes: withHealth(1, "down") };
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["other", "old"]);
    cluster = { ...cluster, nodes: withHealth(0, "healthy") };
    expect(pass()).toEqual(expected());
    expect(pass().preemptions.map((preemption) => preemption.runId)).toEqual(["other"]);
  });

  it("decide as the list, pass after pass, as runs come and go, ranks shift and time moves", () => {
    fc.assert(
      fc.property(fc.array(arbitraryPassStep(), { minLength: 1, maxLength: 12 }), (steps) => {
        checkPassAfterPass(4, steps);
      }),
      { numRuns: 300 },
    );
  });

  it("decide as the list, pass after pass, where gang jobs wait on protected runs", () => {
    // Mostly allocated runs whose protections end at many moments, runs across two nodes, gang
    // jobs and short jobs that may backfill: reservations are chosen on runs that came, went
    // and were preempted in earlier passes.
    const step = arbitraryPassStep({
      addGpus: fc.constantFrom(2, 4, 8, 12, 16),
      isAllocated: fc.constantFrom(true, true, true, false),
      protectSec: fc.integer({ min: 0, max: 40 }).map((slots) => slots * 300),
      advanceSec: fc.constantFrom(0, 60, 600, 3600),
      jobGpus: fc.constantFrom(1, 4, 8, 16, 24),
      minRuntimeSec: fc.constantFrom(0, 300, 1800, 7200),
    });
    const total = { reserved: 0, backfills: 0 };
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), (steps) => {
        const counts = checkPassAfterPass(6, steps);
        total.reserved += counts.reserved;
        total.backfills += counts.backfills;
      }),
      { numRuns: 300 },
    );
    // Passes with a reservation (about 650 of some 2,000) and backfills onto its nodes (about
    // 20): the rules under test were met.
    expect(total.reserved).toBeGreaterThan(400);
    expect(total.backfills).toBeGreaterThan(0);
  });

  it("decide as the list, pass after pass, where gang jobs wait on nodes that several runs share", () => {
    // Small allocated runs of every budget, protected until many moments, some ending before
    // each pass while the ranks shift: a gang job's reservation reads each whole node's runs
    // from what the standing runs summed up at an earlier pass (`NodeRuns`), so each node's sum
    // must follow its runs, their ranks and this pass's own starts and ends.
    const step = arbitraryPassStep({
      addGpus: fc.constantFrom(1, 2, 2, 4),
      isAllocated: fc.constantFrom(true, true, true, false),
      protectSec: fc.integer({ min: 0, max: 12 }).map((slots) => slots * 600),
      advanceSec: fc.constantFrom(0, 300, 1200, 3600),
      // Ranks that mostly hold from pass to pass, so that sums stand for several passes.
      usage: fc.constantFrom([0, 100, 5000], [0, 100, 5000], [0, 100, 5000], [5000, 100, 0]),
      jobGpus: fc.constantFrom(2, 8, 16, 24),
      minRuntimeSec: fc.constantFrom(0, 600, 3600),
      endEvery: fc.constantFrom(0, 0, 3, 5),
    });
    let reserved = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 3, maxLength: 14 }), (steps) => {
        reserved += checkPassAfterPass(6, steps, true).reserved;
      }),
      { numRuns: 400 },
    );
    expect(reserved).toBeGreaterThan(400);
  });

  it("decide as the list, pass after pass, where budgets hold many small unprotected runs", () => {
    // Many 1- and 2-GPU runs, most of them unprotected, so that a budget ranked below a job holds
    // 4 runs or more: the room a plan counts is then judged per budget (the share guard's one
    // verdict), on runs some of which a draining or down node ends in the same pass.
    const step = arbitraryPassStep({
      addGpus: fc.constantFrom(1, 1, 2),
      isAllocated: fc.constantFrom(true, true, true, false),
      protectSec: fc.constantFrom(0, 0, 0, 600),
      jobGpus: fc.constantFrom(1, 2, 4, 8),
      endEvery: fc.constantFrom(0, 0, 0, 4),
    });
    let crowded = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), (steps) => {
        crowded += checkPassAfterPass(4, steps).crowded;
      }),
      { numRuns: 300 },
    );
    // Passes that preempted a run of a budget holding 4 unprotected runs or more (about 180).
    expect(crowded).toBeGreaterThan(80);
  });
});

const deepTree = buildTree({
  name: "lab",
  children: [{ name: "a" }, { name: "b", children: [{ name: "x" }, { name: "y" }] }],
});
const leaves = ["a", "b/x", "b/y"];

/** What happens before one pass of `checkPassAfterPass`, drawn from the choices given. */
function arbitraryPassStep(
  choices: {
    addGpus?: fc.Arbitrary<number>;
    isAllocated?: fc.Arbitrary<boolean>;
    protectSec?: fc.Arbitrary<number>;
    advanceSec?: fc.Arbitrary<number>;
    usage?: fc.Arbitrary<number[]>;
    jobGpus?: fc.Arbitrary<number>;
    minRuntimeSec?: fc.Arbitrary<number>;
    endEvery?: fc.Arbitrary<number>;
  } = {},
) {
  return fc.record({
    adds: fc.array(
      fc.record({
        leaf: fc.nat(2),
        gpus: choices.addGpus ?? fc.constantFrom(1, 2, 4, 8, 16),
        isAllocated: choices.isAllocated ?? fc.boolean(),
        protectSec: choices.protectSec ?? fc.constantFrom(0, 300, 3600),
      }),
      { maxLength: 6 },
    ),
    // Which runs end before the pass: every run whose turn comes up.
    endEvery: choices.endEvery ?? fc.constantFrom(0, 1, 2, 3),
    advanceSec: choices.advanceSec ?? fc.constantFrom(0, 60, 600, 3600, -600),
    usage: choices.usage ?? fc.array(fc.constantFrom(0, 100, 5000), { minLength: 3, maxLength: 3 }),
    health: fc.constantFrom<NodeHealth>("healthy", "healthy", "healthy", "draining", "down"),
    jobs: fc.array(
      fc.record({
        leaf: fc.nat(2),
        gpus: choices.jobGpus ?? fc.constantFrom(1, 2, 4, 8, 12),
        minRuntimeSec: choices.minRuntimeSec ?? fc.constantFrom(0, 600),
      }),
      { maxLength: 4 },
    ),
  });
}

type PassStep = ReturnType<typeof arbitraryPassStep> extends fc.Arbitrary<infer T> ? T : never;

/** First fit: one node, or two whole nodes for 16 GPUs, or a whole node and 4 GPUs for 12. */
function placeFirstFit(
  free: readonly number[],
  gpus: number,
): { node: number; gpus: number }[] | null {
  const whole = free.flatMap((freeGpus, node) => (freeGpus === 8 ? [node] : []));
  if (gpus === 16) {
    return whole.length < 2 ? null : whole.slice(0, 2).map((node) => ({ node, gpus: 8 }));
  }
  if (gpus === 12) {
    const first = whole[0];
    const other = free.findIndex((freeGpus, node) => node !== first && freeGpus >= 4);
    return first === undefined || other < 0
      ? null
      : [
          { node: first, gpus: 8 },
          { node: other, gpus: 4 },
        ];
  }
  const node = free.findIndex((freeGpus) => freeGpus >= gpus);
  return node < 0 ? null : [{ node, gpus }];
}

/**
 * Runs `steps` on a cluster of `nodeCount` 8-GPU nodes: before each pass some runs end, time
 * moves, runs start (`placeFirstFit`) and node 3's health may change; each pass on standing
 * runs decides what a pass on the same runs as a list decides. Gives how many passes kept a
 * reservation, how many starts were kept for its holder (backfills), and how many passes
 * preempted a run of a budget holding 4 unprotected allocated runs or more (crowded). With
 * `describeWaits`, the waiting jobs' reasons, which name the reservation's nodes and ready time,
 * are compared too.
 */
function checkPassAfterPass(
  nodeCount: number,
  steps: readonly PassStep[],
  describeWaits = false,
): { reserved: number; backfills: number; crowded: number } {
  const counts = { reserved: 0, backfills: 0, crowded: 0 };
  const cluster = makeCluster(nodeCount, 8);
  const standing = createStandingRuns(cluster.nodes);
  let list: ActiveRun[] = [];
  const free = Array.from({ length: nodeCount }, () => 8);
  let nowSec = 10_000;
  let nextId = 0;
  for (const { adds, endEvery, advanceSec, usage, health, jobs } of steps) {
    if (endEvery > 0) {
      const [ending, kept] = [[] as ActiveRun[], [] as ActiveRun[]];
      list.forEach((run, i) => (i % endEvery === 0 ? ending : kept).push(run));
      for (const run of ending) {
        standing.remove(run.id);
        for (const slice of run.placement) free[slice.node]! += slice.gpus;
      }
      list = kept;
    }
    nowSec += advanceSec;
    for (const add of adds) {
      const placement = placeFirstFit(free, add.gpus);
      if (!placement) continue;
      for (const slice of placement) free[slice.node]! -= slice.gpus;
      const run = makeRun(`r${nextId++}`, leaves[add.leaf]!, placement, {
        startSec: nowSec - 100,
        isAllocated: add.isAllocated,
        protectedUntilSec: add.isAllocated ? nowSec + add.protectSec : nowSec - 100,
      });
      standing.add(run);
      list.push(run);
    }
    (cluster.nodes as ClusterNodeState[])[3] = { ...cluster.nodes[3]!, health };
    const input = {
      cluster,
      nowSec,
      tree: deepTree,
      leafUsage: Object.fromEntries(leaves.map((leaf, i) => [leaf, usage[i]!])),
      pending: jobs.map((job, i) =>
        makeJob(`j${i}`, leaves[job.leaf]!, job.gpus, { minRuntimeSec: job.minRuntimeSec }),
      ),
      describeWaits,
    };
    const { result, reservationHolderRank } = outcomeOn({ ...input, runs: standing });
    expect(result).toEqual(runSchedulePass({ ...input, runs: list }));
    if (reservationHolderRank !== null) counts.reserved += 1;
    for (const start of result.starts) {
      if (start.reason.rule === "start-allocated" && start.reason.keptFor) counts.backfills += 1;
    }
    const unprotectedRuns = (budgetId: string) =>
      list.filter(
        (run) => run.budgetId === budgetId && run.isAllocated && run.protectedUntilSec <= nowSec,
      ).length;
    if (result.preemptions.some((preemption) => unprotectedRuns(preemption.budgetId) >= 4)) {
      counts.crowded += 1;
    }
    // The free GPUs of usable nodes, counted as runs came and went, as counted anew.
    const kept = standing.state;
    expect(kept.usableFree).toEqual(
      countUsableFree(kept.pool, kept.free, kept.usableFree!.isUsable),
    );
  }
  return counts;
}

describe("standing runs' protection ends and preemption bound", () => {
  // a and b hold equal shares; the share guard lets a take from b only while b holds more.
  const rankOf = (budgetId: string) => (budgetId === "a" ? 1 : 2);

  it("count the protections that end as time goes on, and name their budgets", () => {
    const runs = createStandingRuns(makeCluster(2).nodes);
    runs.add(makeRun("b1", "b", [{ node: 0, gpus: 4 }], { protectedUntilSec: 100 }));
    runs.add(makeRun("b2", "b", [{ node: 0, gpus: 4 }], { protectedUntilSec: 300 }));
    runs.add(makeRun("a1", "a", [{ node: 1, gpus: 2 }], { protectedUntilSec: 200 }));
    expect(runs.protectionEndsBy(50)).toBe(0);
    expect(runs.protectionEndsBy(100)).toBe(1);
    expect(runs.protectionEndsBy(250)).toBe(2);
    expect(runs.protectionsEndedIn(50, 250)).toEqual(["b", "a"]);
    expect(runs.protectionsEndedIn(100, 250)).toEqual(["a"]);
    // A run gone before its protection ends is not counted.
    runs.remove("b2");
    expect(runs.protectionEndsBy(400)).toBe(2);
    expect(runs.protectionsEndedIn(250, 400)).toEqual([]);
  });

  it("bounds what preemption could free: unallocated runs, and lower budgets the guard allows", () => {
    const runs = createStandingRuns(makeCluster(3).nodes);
    runs.add(makeRun("b1", "b", [{ node: 0, gpus: 8 }], { protectedUntilSec: 0 }));
    runs.add(makeRun("b2", "b", [{ node: 1, gpus: 4 }], { protectedUntilSec: 500 }));
    runs.add(makeRun("free", "a", [{ node: 2, gpus: 2 }], { isAllocated: false }));
    runs.add(makeRun("a1", "a", [{ node: 2, gpus: 2 }], { protectedUntilSec: 0 }));
    const job = { budgetId: "a", gpus: 4 };
    // b holds 12 GPUs to a's 2: a job of a may take b1's 8 (a would hold 6, b 4).
    expect(runs.preemptableBound(tree, 100, job, 1, rankOf)).toBe(2 + 8);
    // Once b2's protection ends its 4 count too.
    expect(runs.preemptableBound(tree, 600, job, 1, rankOf)).toBe(2 + 8 + 4);
    // A job of b ranks below a: only the unallocated run.
    expect(runs.preemptableBound(tree, 600, { budgetId: "b", gpus: 4 }, 2, rankOf)).toBe(2);
    // The guard: a job of a as large as b's holdings may not preempt b's runs.
    expect(runs.preemptableBound(tree, 600, { budgetId: "a", gpus: 12 }, 1, rankOf)).toBe(2);
  });
});
