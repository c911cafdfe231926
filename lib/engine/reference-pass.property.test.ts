import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPassScratch } from "./pass-scratch";
import { createIncrementalScheduler } from "./incremental-scheduler";
import type { PassOutcome } from "./pass-types";
import { queueFromPending } from "./pending-queue";
import { referencePassOutcome, type ReferencePassInput } from "./reference-pass";
import { rankLookup, runFastPass, runSchedulePass, type SchedulePassResult } from "./schedule-pass";
import { buildTree, type TreeSpec } from "./test-helpers";
import type { ActiveRun, NodeHealth, NodeSlice, PendingJob, Priority } from "./types";

// The fast pass, as the live tick calls it (lists) and as the simulator keeps its state between
// passes (an incremental scheduler), decides exactly what the reference pass decides: starts with
// their placement, preemptions, the reservation's holder, reasons for waiting.

const NOW = 50_000;
const RUNS = { numRuns: 120 };

const runFields = {
  gpus: fc.integer({ min: 1, max: 8 }),
  wholeNodes: fc.constantFrom<number>(0, 0, 0, 1, 2, 3),
  node: fc.nat(9),
  leaf: fc.nat(15),
  isAllocated: fc.constantFrom(true, true, false),
  startAgoSec: fc.constantFrom<number>(0, 0, 120, 600, 1800, 3000, 7200, 20_000, 40_000),
  minRuntimeSec: fc.constantFrom<number>(600, 600, 3600, 14_400, 40_000),
  isResumable: fc.boolean(),
};
const runArb = fc.record(runFields);

const jobFields = {
  gpus: fc.constantFrom<number>(1, 1, 2, 3, 4, 4, 6, 8, 8, 12, 16, 20, 24, 40),
  leaf: fc.nat(16),
  minRuntimeSec: fc.constantFrom<number>(0, 300, 600, 3600, 7_200, 10_800, 14_400, 40_000),
  priority: fc.constantFrom<Priority>("low", "normal", "high"),
  submitSec: fc.integer({ min: 0, max: 5000 }),
};
const jobArb = fc.record(jobFields);

const scenarioArb = fc.record({
  programs: fc.array(
    fc.record({
      weight: fc.constantFrom<number>(0, 1, 1, 2, 3),
      children: fc.array(fc.constantFrom<number>(0, 1, 1, 2, 5), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  usage: fc.array(fc.constantFrom<number>(0, 0, 100, 700, 1000, 3000, 5000, 20_000, 90_000), {
    minLength: 16,
    maxLength: 16,
  }),
  // Without ties most leaves rank apart (backfill needs three ranks); with them LF ties abound.
  hasRankTies: fc.boolean(),
  // When above 0, runs belong to that many leaves only, which used the most: preemption for rank.
  hogCount: fc.constantFrom<number>(0, 0, 1, 2, 3),
  nodeSize: fc.constantFrom<number>(4, 8),
  // Some nodes smaller than the largest: one-node jobs only, never a gang job's whole node.
  smallNodes: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  hasMixedSizes: fc.boolean(),
  health: fc.array(
    fc.constantFrom<NodeHealth>("healthy", "healthy", "healthy", "healthy", "draining", "down"),
    { minLength: 1, maxLength: 8 },
  ),
  runs: fc.array(runArb, { maxLength: 24 }),
  jobs: fc.array(jobArb, { maxLength: 24 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * A crowded cluster: a few healthy nodes held by the one or two leaves that used the most, and
 * jobs of every leaf. Preemption for rank, reservations and backfill come up often here.
 */
const crowdedArb: fc.Arbitrary<Scenario> = fc
  .record({
    leaves: fc.array(fc.constantFrom<number>(1, 2, 3), { minLength: 3, maxLength: 5 }),
    hogCount: fc.constantFrom<number>(1, 2),
    nodes: fc.integer({ min: 1, max: 3 }),
    runs: fc.array(runArb, { minLength: 2, maxLength: 10 }),
    jobs: fc.array(jobArb, { minLength: 2, maxLength: 12 }),
  })
  .map((c) => ({
    programs: [{ weight: 1, children: c.leaves }],
    usage: [0, 700, 3000, 9000, 20_000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    hasRankTies: false,
    hogCount: c.hogCount,
    nodeSize: 8,
    smallNodes: Array.from({ length: 10 }, () => false),
    hasMixedSizes: false,
    health: Array.from({ length: c.nodes }, (): NodeHealth => "healthy"),
    runs: c.runs,
    jobs: c.jobs,
  }));

/** The budgets of the busy families: one program of 3-6 leaves, their usage spread wide. */
const busyBudgets = {
  leaves: fc.array(fc.constantFrom<number>(1, 2, 3), { minLength: 3, maxLength: 6 }),
  usage: fc.array(fc.constantFrom<number>(0, 700, 3000, 9000, 20_000), {
    minLength: 16,
    maxLength: 16,
  }),
};

/** One program of `leaves`, 8-GPU nodes of one size, with the health given: a busy family's form. */
function oneProgram(
  c: { leaves: number[]; usage: number[]; runs: Scenario["runs"]; jobs: Scenario["jobs"] },
  health: NodeHealth[],
  hogCount = 0,
): Scenario {
  return {
    programs: [{ weight: 1, children: c.leaves }],
    usage: c.usage,
    hasRankTies: false,
    hogCount,
    nodeSize: 8,
    smallNodes: Array.from({ length: 10 }, () => false),
    hasMixedSizes: false,
    health,
    runs: c.runs,
    jobs: c.jobs,
  };
}

/**
 * A busy cluster of whole-node work and short jobs (ADR 092): runs of every leaf, many of them
 * protected for hours, a gang job or two and short jobs (at most 15 minutes, 1-8 GPUs). Short
 * jobs that the sweeps leave waiting, nodes kept for a gang job, and victims the share guard
 * keeps come up often here: the short sweep's ground.
 */
const shortArb: fc.Arbitrary<Scenario> = fc
  .record({
    ...busyBudgets,
    nodes: fc.integer({ min: 2, max: 5 }),
    runs: fc.array(
      fc.record({
        ...runFields,
        wholeNodes: fc.constantFrom<number>(0, 0, 1),
        startAgoSec: fc.constantFrom<number>(0, 120, 1800, 20_000),
        minRuntimeSec: fc.constantFrom<number>(600, 14_400, 40_000),
      }),
      { minLength: 3, maxLength: 14 },
    ),
    gang: fc.array(fc.record({ ...jobFields, gpus: fc.constantFrom(16, 24) }), {
      maxLength: 2,
    }),
    short: fc.array(
      fc.record({
        ...jobFields,
        gpus: fc.constantFrom<number>(1, 2, 4, 8),
        minRuntimeSec: fc.constantFrom<number>(300, 900),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  })
  .map((c) =>
    oneProgram(
      { ...c, jobs: [...c.gang, ...c.short] },
      Array.from({ length: c.nodes }, (): NodeHealth => "healthy"),
    ),
  );

/**
 * A cluster large enough to keep a node for short jobs (ADR 098, 16 nodes or more): whole-node
 * runs of every leaf, protected or not, and one-node training, short and gang jobs waiting. The
 * node kept, jobs kept from it and short jobs preempting there come up often here.
 */
const reserveArb: fc.Arbitrary<Scenario> = fc
  .record({
    ...busyBudgets,
    nodes: fc.integer({ min: 17, max: 18 }),
    hogCount: fc.constantFrom<number>(0, 1, 2, 2),
    down: fc.constantFrom<number>(-1, -1, -1, 0, 5),
    runs: fc.array(
      fc.record({
        ...runFields,
        gpus: fc.constantFrom<number>(1, 1, 1, 4),
        wholeNodes: fc.constantFrom<number>(1, 1, 1, 0),
        isAllocated: fc.constantFrom(true, true, true, true, false),
        startAgoSec: fc.constantFrom<number>(120, 1800, 1800, 20_000),
        minRuntimeSec: fc.constantFrom<number>(600, 3600, 14_400, 14_400),
      }),
      { minLength: 16, maxLength: 22 },
    ),
    jobs: fc.array(
      fc.record({
        ...jobFields,
        gpus: fc.constantFrom<number>(1, 4, 8, 8, 8, 16),
        minRuntimeSec: fc.constantFrom<number>(300, 900, 3600, 7200, 14_400, 14_400),
      }),
      { minLength: 2, maxLength: 10 },
    ),
  })
  .map((c) =>
    oneProgram(
      c,
      Array.from({ length: c.nodes }, (_, i): NodeHealth => (i === c.down ? "down" : "healthy")),
      c.hogCount,
    ),
  );

/** A pass input from a scenario: runs packed onto the nodes, never over capacity. */
function toInput(s: Scenario): ReferencePassInput & { leafUsage: Record<string, number> } {
  const spec: TreeSpec = {
    name: "lab",
    children: s.programs.map((program, p) => ({
      name: `p${p}`,
      weight: program.weight,
      children: program.children.map((weight, c) => ({ name: `l${c}`, weight })),
    })),
  };
  const tree = buildTree(spec);
  const leaves = tree.nodes.filter((node) => node.isLeaf).map((node) => node.id);
  const leafUsage: Record<string, number> = {};
  leaves.forEach((id, i) => {
    const hogSec = i < s.hogCount ? 200_000 : 0;
    leafUsage[id] = s.usage[i % s.usage.length]! + (s.hasRankTies ? 0 : 37 * i) + hogSec;
  });
  const runLeaf = (leaf: number): string =>
    leaves[s.hogCount > 0 ? leaf % Math.min(s.hogCount, leaves.length) : leaf % leaves.length]!;
  const nodes = s.health.map((health, index) => ({
    index,
    gpus: s.hasMixedSizes && s.smallNodes[index] ? s.nodeSize / 2 : s.nodeSize,
    health,
  }));
  const free = nodes.map((node) => node.gpus);
  const runs: ActiveRun[] = [];
  s.runs.forEach((run, i) => {
    let placement: NodeSlice[] | null = null;
    if (run.wholeNodes > 0) {
      const whole = nodes.filter((n) => n.gpus === s.nodeSize && free[n.index] === s.nodeSize);
      if (whole.length >= run.wholeNodes) {
        placement = whole.slice(0, run.wholeNodes).map((n) => ({ node: n.index, gpus: n.gpus }));
        const rest = Math.min(run.gpus, s.nodeSize) - 1;
        const other = nodes.find(
          (n) => !placement!.some((p) => p.node === n.index) && free[n.index]! >= rest,
        );
        if (rest > 0 && other) placement.push({ node: other.index, gpus: rest });
      }
    } else {
      const gpus = Math.min(run.gpus, s.nodeSize);
      const start = run.node % nodes.length;
      const order = [...nodes.slice(start), ...nodes.slice(0, start)];
      const node = order.find((n) => free[n.index]! >= gpus);
      if (node) placement = [{ node: node.index, gpus }];
    }
    if (!placement) return;
    for (const slice of placement) free[slice.node]! -= slice.gpus;
    const startSec = NOW - run.startAgoSec;
    runs.push({
      id: `r${i}`,
      jobId: `rj${i}`,
      budgetId: runLeaf(run.leaf),
      userId: "u",
      gpus: placement.reduce((sum, slice) => sum + slice.gpus, 0),
      placement: placement.sort((a, b) => a.node - b.node),
      startSec,
      isAllocated: run.isAllocated,
      protectedUntilSec: run.isAllocated ? startSec + run.minRuntimeSec : startSec,
      isResumable: run.isResumable,
      priority: "normal",
    });
  });
  const pending: PendingJob[] = s.jobs.map((job, i) => ({
    id: `j${i}`,
    // Index 16 charges the root: an inner node, refused.
    budgetId: job.leaf === 16 ? "root" : leaves[job.leaf % leaves.length]!,
    userId: "u",
    gpus: job.gpus,
    minRuntimeSec: job.minRuntimeSec,
    isResumable: true,
    priority: job.priority,
    submitSec: job.submitSec,
  }));
  return {
    cluster: { name: "c", nodes, lookbackSec: 604_800, maxMinRuntimeSec: 28_800 },
    nowSec: NOW,
    tree,
    leafUsage,
    runs,
    pending,
  };
}

/** The runs after a pass's decisions: preempted ones gone, starts running. */
function runsAfter(runs: readonly ActiveRun[], result: SchedulePassResult, jobs: PendingJob[]) {
  const ended = new Set(result.preemptions.map((p) => p.runId));
  const started = result.starts.map((start): ActiveRun => {
    const job = jobs.find((j) => j.id === start.jobId)!;
    return {
      id: `run-${start.jobId}-${result.atSec}`,
      jobId: start.jobId,
      budgetId: start.budgetId,
      userId: job.userId,
      gpus: start.gpus,
      placement: start.placement,
      startSec: result.atSec,
      isAllocated: start.isAllocated,
      protectedUntilSec: start.protectedUntilSec,
      isResumable: job.isResumable,
      priority: job.priority,
    };
  });
  return { kept: runs.filter((run) => !ended.has(run.id)), started };
}

/** How often the comparisons met each kind of decision: they must meet every kind. */
const seen = {
  placements: 0,
  preemptionsForRank: 0,
  preemptionsOfUnallocated: 0,
  drains: 0,
  nodeDowns: 0,
  holders: 0,
  backfills: 0,
  backfillsOnUnknownReady: 0,
  shortStarts: 0,
  shortStartsOnKeptNodes: 0,
  shareGuardWaivers: 0,
  shortStartsBeforeQueue: 0,
  keptForShortWaits: 0,
  reservationWaits: 0,
  unallocatedStarts: 0,
  gangStarts: 0,
};

/** The fast pass on lists, as `runSchedulePass` runs it, with its reservation holder's rank. */
function fastOutcome(input: ReferencePassInput, ranking: PassOutcome["result"]["ranking"]) {
  const queue = queueFromPending(input.pending, input.tree, input.cluster);
  const scratch = createPassScratch();
  return runFastPass({ ...input, ranking, rankOf: rankLookup(ranking), queue, scratch });
}

/** The fast pass and the reference on one input: the same result and reservation holder. */
function expectSameAsReference(input: ReferencePassInput): void {
  const expected = referencePassOutcome(input);
  expect(runSchedulePass(input)).toEqual(expected.result);
  const { reservationHolderRank } = fastOutcome(input, expected.result.ranking);
  expect(reservationHolderRank).toBe(expected.reservationHolderRank);
  count(expected);
}

function count({ result, reservationHolderRank }: PassOutcome): void {
  for (const start of result.starts) {
    seen.placements += 1;
    if (start.placement.length > 1) seen.gangStarts += 1;
    if (start.reason.rule === "start-unallocated") seen.unallocatedStarts += 1;
    if (start.reason.rule !== "start-allocated") continue;
    const { keptFor, short } = start.reason;
    if (keptFor && !short) seen.backfills += 1;
    if (keptFor && !short && keptFor.readyAtSec === null) seen.backfillsOnUnknownReady += 1;
    if (short) seen.shortStarts += 1;
    if (short && keptFor) seen.shortStartsOnKeptNodes += 1;
    if (short?.isShareGuardWaived) seen.shareGuardWaivers += 1;
    if (short?.isBeforeQueue) seen.shortStartsBeforeQueue += 1;
  }
  for (const { reason } of result.waiting) {
    if (reason.rule === "wait-resources" && reason.keptForShort) seen.keptForShortWaits += 1;
  }
  for (const { reason } of result.preemptions) {
    if (reason.rule === "preempt-for-rank") seen.preemptionsForRank += 1;
    if (reason.rule === "preempt-unallocated") seen.preemptionsOfUnallocated += 1;
    if (reason.rule === "preempt-drain") seen.drains += 1;
    if (reason.rule === "preempt-node-down") seen.nodeDowns += 1;
  }
  if (reservationHolderRank !== null) seen.holders += 1;
  seen.reservationWaits += result.waiting.filter(
    (w) => w.reason.rule === "wait-reservation",
  ).length;
}

/** Free GPUs per node index with `runs` holding theirs. */
function freeGpusOf(nodes: readonly { index: number; gpus: number }[], runs: readonly ActiveRun[]) {
  const free: number[] = [];
  for (const node of nodes) free[node.index] = node.gpus;
  for (const run of runs) {
    for (const slice of run.placement) free[slice.node] = free[slice.node]! - slice.gpus;
  }
  return free;
}

describe("the reference pass", () => {
  it("the fast pass on lists (as the live tick calls it) decides exactly what it decides", () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), (s, describeWaits) => {
        expectSameAsReference({ ...toInput(s), describeWaits });
      }),
      RUNS,
    );
  });

  it("the fast pass decides what it decides on crowded clusters (preemption, backfill)", () => {
    fc.assert(
      fc.property(crowdedArb, fc.boolean(), (s, describeWaits) => {
        expectSameAsReference({ ...toInput(s), describeWaits });
      }),
      RUNS,
    );
  });

  it("the fast pass decides what it decides for short jobs on busy clusters (ADR 092)", () => {
    fc.assert(
      fc.property(shortArb, fc.boolean(), (s, describeWaits) => {
        expectSameAsReference({ ...toInput(s), describeWaits });
      }),
      { numRuns: 800 },
    );
  });

  it("the fast pass decides what it decides on clusters that keep a node for short jobs (ADR 098)", () => {
    fc.assert(
      fc.property(reserveArb, fc.boolean(), (s, describeWaits) => {
        expectSameAsReference({ ...toInput(s), describeWaits });
      }),
      { numRuns: 800 },
    );
  });

  it.each([
    ["small clusters", () => scenarioArb, 80],
    ["clusters that keep a node for short jobs", () => reserveArb, 40],
  ] as const)(
    "an incremental scheduler, kept over passes with arrivals, cancels and ends, decides the same (%s)",
    (_, arbitrary, numRuns) => {
      const stepArb = fc.record({
        afterSec: fc.constantFrom<number>(0, 60, 300, 600, 3600, 20_000),
        endEvery: fc.integer({ min: 0, max: 4 }),
        cancelEvery: fc.integer({ min: 0, max: 6 }),
        arrivals: fc.array(jobArb, { maxLength: 4 }),
        healthChange: fc.option(
          fc.record({
            node: fc.nat(7),
            health: fc.constantFrom<NodeHealth>("healthy", "draining"),
          }),
        ),
        usageBump: fc.constantFrom<number>(0, 0, 500, 5000),
      });
      fc.assert(
        fc.property(arbitrary(), fc.array(stepArb, { minLength: 1, maxLength: 4 }), (s, steps) => {
          const first = toInput(s);
          let input = { ...first, describeWaits: steps.length % 2 === 0 };
          const scheduler = createIncrementalScheduler(input.tree, input.cluster);
          for (const job of input.pending) scheduler.addJob(job);
          for (const run of input.runs) scheduler.addRun(run);
          let jobs = [...input.pending];
          let runs = [...input.runs];
          for (let pass = 0; pass <= steps.length; pass += 1) {
            const expected = referencePassOutcome({ ...input, pending: jobs, runs });
            const { ranking } = expected.result;
            // A pass it shows to decide nothing decides nothing.
            const freeGpus = freeGpusOf(input.cluster.nodes, runs);
            const skip = scheduler.canSkipPass({
              cluster: input.cluster,
              nowSec: input.nowSec,
              freeGpus,
              usableFreeGpus: input.cluster.nodes
                .filter((node) => node.health === "healthy")
                .reduce((sum, node) => sum + freeGpus[node.index]!, 0),
              ranking: () => ranking,
            });
            if (skip !== null) {
              expect(expected.result.starts).toEqual([]);
              expect(expected.result.preemptions).toEqual([]);
            }
            const result = scheduler.pass({ ...input, ranking });
            expect(result).toEqual(expected.result);
            count(expected);
            const step = steps[pass];
            if (!step) break;
            // Apply the pass: starts leave the queue and run, preempted runs leave (down-node runs
            // too), resumable ones come back as jobs; then time passes, runs end and jobs arrive.
            const { kept, started } = runsAfter(runs, result, jobs);
            jobs = jobs.filter((job) => !result.starts.some((start) => start.jobId === job.id));
            for (const preemption of result.preemptions) scheduler.endRun(preemption.runId);
            for (const run of started) scheduler.addRun(run);
            runs = [...kept, ...started];
            const ending =
              step.endEvery > 0 ? runs.filter((_, i) => i % (step.endEvery + 1) === 0) : [];
            for (const run of ending) scheduler.endRun(run.id);
            runs = runs.filter((run) => !ending.includes(run));
            const nowSec = input.nowSec + step.afterSec;
            const arrivals = step.arrivals.map((job, i) => ({
              ...toInput({ ...s, jobs: [job] }).pending[0]!,
              id: `a${pass}-${i}`,
              submitSec: nowSec,
            }));
            // Waiting jobs cancelled (every n-th, none when 0), then the arrivals.
            const cancelled =
              step.cancelEvery > 0 ? jobs.filter((_, i) => i % step.cancelEvery === 1) : [];
            for (const job of cancelled) scheduler.removeJob(job.id);
            jobs = jobs.filter((job) => !cancelled.includes(job));
            for (const job of arrivals) scheduler.addJob(job);
            jobs = [...jobs, ...arrivals];
            const nodes = input.cluster.nodes.map((node) =>
              step.healthChange &&
              node.index === step.healthChange.node % input.cluster.nodes.length
                ? { ...node, health: step.healthChange.health }
                : node,
            );
            // Runs on a node that went down were ended by the pass; none is left there.
            const leafUsage = Object.fromEntries(
              Object.entries(input.leafUsage).map(([id, gpuSec], i) => [
                id,
                gpuSec + (i % 2 === pass % 2 ? step.usageBump : 0),
              ]),
            );
            input = { ...input, nowSec, leafUsage, cluster: { ...input.cluster, nodes } };
          }
        }),
        { numRuns },
      );
    },
  );

  it("the comparisons met every kind of decision", () => {
    for (const [kind, times] of Object.entries(seen)) expect(times, kind).toBeGreaterThan(5);
  });
});
