// The reference pass's state (reference-pass.ts): the nodes, the runs and the decisions so far,
// and the moves every step makes on it: load, start a job, preempt a run.
import { isProtected, protectedUntilSec } from "./contract";
import { createBudgetRefs, createPartingLookup } from "./budget-refs";
import type { FairTreeRanking } from "./fair-tree-ranking";
import { rankPreemptionReason } from "./preemption";
import type { BudgetRef, Comparison, KeptFor, PreemptReason, ShortStart } from "./reasons";
import {
  nodesOf,
  passesShareGuard,
  planVictims,
  type ReferenceNodes,
  type ReferenceReservation,
  type ReferenceRun,
} from "./reference-rules";
import type { SchedulePassInput, SchedulePassResult } from "./pass-types";
import { isShortJob } from "./short-jobs";
import type { NodeSlice, PendingJob } from "./types";

/** What the reference pass works on: the nodes, the runs, and the decisions so far. */
export type ReferenceState = {
  input: SchedulePassInput;
  nowSec: number;
  nodes: ReferenceNodes;
  /** Input runs (those not ended on a down node) in input order, then the pass's starts. */
  runs: ReferenceRun[];
  /** Runs loaded before any start: only those can be victims. */
  loadedCount: number;
  rankOf: (budgetId: string) => number;
  budgetRef: (budgetId: string) => BudgetRef;
  partingOf: ReturnType<typeof createPartingLookup>;
  slotOf: (budgetId: string) => number;
  result: SchedulePassResult;
  started: Set<PendingJob>;
  /** The position kept for short jobs (ADR 098), chosen after steps 2 and 3; -1 for none. */
  shortReserveAt: number;
};

/** The first allocated job that could not start in a sweep, and the nodes kept for it. */
export type ReferenceHolder = { job: PendingJob; rank: number; reservation: ReferenceReservation };

/** The nodes with every input run on them, and the pass's bookkeeping (nothing decided yet). */
export function loadState(input: SchedulePassInput, ranking: FairTreeRanking): ReferenceState {
  const unknownRank = ranking.leafCount + 1;
  const rankOf = (budgetId: string): number => ranking.rankByBudgetId[budgetId] ?? unknownRank;
  const slots = new Map<string, number>();
  const slotOf = (budgetId: string): number => {
    if (!slots.has(budgetId)) slots.set(budgetId, slots.size);
    return slots.get(budgetId)!;
  };
  const nodes = nodesOf(input.cluster.nodes);
  const runs = input.runs.map((run): ReferenceRun => {
    const slices = run.placement.map((slice) => {
      const position = nodes.index.indexOf(slice.node);
      if (position < 0)
        throw new RangeError(`Run "${run.id}" is placed on unknown node ${slice.node}.`);
      return { position, gpus: slice.gpus };
    });
    return {
      id: run.id,
      budgetId: run.budgetId,
      budgetSlot: slotOf(run.budgetId),
      isAllocated: run.isAllocated,
      rank: rankOf(run.budgetId),
      startSec: run.startSec,
      gpus: run.gpus,
      slices,
      protectedUntilSec: run.protectedUntilSec,
      isGone: false,
      isProtectedNow: isProtected(run, input.nowSec),
      run,
    };
  });
  return {
    input,
    nowSec: input.nowSec,
    nodes,
    runs,
    loadedCount: runs.length,
    rankOf,
    budgetRef: createBudgetRefs(input.tree, ranking),
    partingOf: createPartingLookup(input.tree, ranking),
    slotOf,
    started: new Set(),
    shortReserveAt: -1,
    result: {
      atSec: input.nowSec,
      ranking,
      starts: [],
      preemptions: [],
      waiting: [],
      waitingCounts: { allocated: 0, unallocated: 0 },
      drainsCompleted: [],
    },
  };
}

/** Records a preemption of an input run. */
export function recordPreemption(
  state: ReferenceState,
  run: ReferenceRun,
  reason: PreemptReason,
): void {
  const input = run.run!;
  state.result.preemptions.push({
    runId: input.id,
    jobId: input.jobId,
    budgetId: input.budgetId,
    gpus: input.gpus,
    outcome: reason.outcome,
    reason,
  });
}

/** Ends a loaded run now: its GPUs are free, the preemption is recorded. */
export function endRun(state: ReferenceState, run: ReferenceRun, reason: PreemptReason): void {
  run.isGone = true;
  for (const slice of run.slices) state.nodes.free[slice.position]! += slice.gpus;
  recordPreemption(state, run, reason);
}

/** Starts a job on `placement` (the GPUs are free) and records the start. */
export function startJob(
  state: ReferenceState,
  job: PendingJob,
  isAllocated: boolean,
  placement: NodeSlice[],
  extra: {
    preemptedRunIds?: string[];
    keptFor?: KeptFor | null;
    outranked?: Comparison | null;
    short?: ShortStart;
  } = {},
): void {
  const { nowSec, nodes } = state;
  const until = protectedUntilSec(nowSec, job.minRuntimeSec, isAllocated);
  const slices = placement.map((slice) => ({
    position: nodes.index.indexOf(slice.node),
    gpus: slice.gpus,
  }));
  for (const slice of slices) nodes.free[slice.position]! -= slice.gpus;
  state.runs.push({
    id: `start:${job.id}`,
    budgetId: job.budgetId,
    budgetSlot: state.slotOf(job.budgetId),
    isAllocated,
    rank: state.rankOf(job.budgetId),
    startSec: nowSec,
    gpus: job.gpus,
    slices,
    protectedUntilSec: until,
    isGone: false,
    isProtectedNow: isAllocated && until > nowSec,
    run: null,
  });
  state.started.add(job);
  const budget = state.budgetRef(job.budgetId);
  const nodeIndices = placement.map((slice) => slice.node);
  state.result.starts.push({
    jobId: job.id,
    budgetId: job.budgetId,
    gpus: job.gpus,
    placement,
    isAllocated,
    protectedUntilSec: until,
    reason: isAllocated
      ? {
          rule: "start-allocated",
          atSec: nowSec,
          budget,
          gpus: job.gpus,
          nodes: nodeIndices,
          minRuntimeSec: job.minRuntimeSec,
          protectedUntilSec: until,
          preemptedRunIds: extra.preemptedRunIds ?? [],
          budgetsAbove: state.rankOf(job.budgetId) - 1,
          keptFor: extra.keptFor ?? null,
          outranked: extra.outranked ?? null,
          ...(extra.short && { short: extra.short }),
        }
      : {
          rule: "start-unallocated",
          atSec: nowSec,
          budget,
          gpus: job.gpus,
          nodes: nodeIndices,
          cause: job.minRuntimeSec > 0 ? "zero-share" : "zero-min-runtime",
        },
  });
}

/**
 * Whether `run` is on the node kept for short jobs and `job` may not count on it (ADR 098): an
 * allocated job that is not short.
 */
export function isKeptForShort(state: ReferenceState, job: PendingJob, run: ReferenceRun): boolean {
  const isKeptFrom = !isShortJob(job, state.nodes.sizeGpus);
  return (
    isKeptFrom &&
    state.shortReserveAt >= 0 &&
    run.slices.some((slice) => slice.position === state.shortReserveAt)
  );
}

/**
 * Step 6b: starts `job` after preempting what it may preempt outside `excluded` (and, for a
 * job that is not short, off the node kept for short jobs). Gives whether it
 * started, and whether the victims freed GPUs on healthy nodes beyond what it took there.
 */
export function startByPreemption(
  state: ReferenceState,
  job: PendingJob,
  rank: number,
  excluded: Uint8Array | null,
): { isStarted: boolean; hasSurplus: boolean } {
  const { tree } = state.input;
  const candidates = state.runs
    .slice(0, state.loadedCount)
    .filter(
      (run) =>
        !run.isGone &&
        !run.isProtectedNow &&
        !isKeptForShort(state, job, run) &&
        (!run.isAllocated ||
          (run.rank > rank &&
            passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus))),
    );
  const plan = planVictims(state.nodes, candidates, job.gpus, excluded, state.nowSec);
  if (!plan) return { isStarted: false, hasSurplus: false };
  return { isStarted: true, hasSurplus: startInPlaceOf(state, job, plan) };
}

/**
 * Starts `job` on a preemption plan's placement once its victims are ended (preempted for rank);
 * `extra` adds a short start's facts. Gives whether the victims freed GPUs on healthy nodes beyond
 * what the job took there.
 */
export function startInPlaceOf(
  state: ReferenceState,
  job: PendingJob,
  plan: { victims: ReferenceRun[]; placement: NodeSlice[] },
  extra: { keptFor?: KeptFor | null; short?: ShortStart } = {},
): boolean {
  const surplus = new Map<number, number>();
  for (const slice of plan.placement) surplus.set(slice.node, -slice.gpus);
  const preemptor = { jobId: job.id, budget: state.budgetRef(job.budgetId), gpus: job.gpus };
  let outranked: Comparison | null = null;
  for (const victim of plan.victims) {
    const run = victim.run!;
    for (const slice of run.placement)
      surplus.set(slice.node, (surplus.get(slice.node) ?? 0) + slice.gpus);
    const parting = run.isAllocated ? state.partingOf(job.budgetId, run.budgetId) : null;
    const victimRef = state.budgetRef(run.budgetId);
    if (run.isAllocated && outranked === null) outranked = { budget: victimRef, parting };
    endRun(state, victim, rankPreemptionReason(run, preemptor, victimRef, state.nowSec, parting));
  }
  const preemptedRunIds = plan.victims.map((victim) => victim.run!.id);
  startJob(state, job, true, plan.placement, { preemptedRunIds, outranked, ...extra });
  const isUsableNode = (node: number) => state.nodes.isUsable[state.nodes.index.indexOf(node)]!;
  return [...surplus].some(([node, gpus]) => gpus > 0 && isUsableNode(node));
}
