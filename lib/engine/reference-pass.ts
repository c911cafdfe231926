import { isBackfillOpen } from "./backfill-rule";
import { checkChargeableBudget, getBudgetNode } from "./budget-tree";
import { isAllocatedRun, isProtected, preemptionOutcome, protectedUntilSec } from "./contract";
import { validateContract } from "./contract";
import { createBudgetRefs, createPartingLookup } from "./budget-refs";
import { rankBudgets } from "./fair-tree";
import type { FairTreeRanking } from "./fair-tree-ranking";
import { createHoldings } from "./holdings";
import { canEverPlace, createGpuPool, placementShape } from "./placement";
import { rankPreemptionReason } from "./preemption";
import type {
  BudgetRef,
  Comparison,
  KeptFor,
  PreemptReason,
  ShortStart,
  WaitDecision,
} from "./reasons";
import {
  nodesOf,
  orderJobs,
  passesShareGuard,
  placeOnFree,
  planVictims,
  reserveNodes,
  type ReferenceNodes,
  type ReferenceReservation,
  type ReferenceRun,
} from "./reference-rules";
import type { PassOutcome, SchedulePassInput, SchedulePassResult } from "./pass-types";
import { isShortJob, MAX_SHORT_ROUNDS, SHORT_MAX_RUNTIME_SEC, shortMaxGpus } from "./short-jobs";
import type { NodeSlice, PendingJob } from "./types";
import { usageWindowSec } from "./usage-window";
import { describeWaiting } from "./wait-reasons";

/** The input of {@link runReferencePass}: the same as `runSchedulePass`'s. */
export type ReferencePassInput = SchedulePassInput;

/** What the reference pass works on: the nodes, the runs, and the decisions so far. */
type PassState = {
  input: ReferencePassInput;
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
};

/** The first allocated job that could not start in a sweep, and the nodes kept for it. */
type Holder = { job: PendingJob; rank: number; reservation: ReferenceReservation };

/** How many times the allocated queue is swept at most (ADR 010, "Repeat sweep"). */
const MAX_SWEEPS = 8;

/**
 * One scheduling pass written as the rules read (docs/contract.md, ADR 010, 011, 015), with
 * no shortcut: the yardstick the fast pass (`runSchedulePass`) and the simulator's incremental
 * path are property-tested against (reference-pass.property.test.ts). Slow: it reads every node
 * and run for every question. Same decisions, reasons and order as `runSchedulePass` on the same
 * lists.
 *
 * 1. Rank the leaves by Fair Tree (unless a ranking is given).
 * 2. Runs touching a `down` node end, protected or not (`preempt-node-down`), in input order.
 * 3. Unprotected runs touching a `draining` node are preempted (`preempt-drain`); draining nodes
 *    left without runs are reported (`drain-complete`).
 * 4. Jobs that can never start get an error: unknown or inner budget, invalid contract, larger
 *    than the cluster could ever place.
 * 5. Order the rest: allocated jobs (minimum runtime and share above 0) by rank, then priority
 *    within a budget, submit time, id (`orderJobs`); unallocated jobs the same, after them.
 * 6. Sweep the allocated jobs in that order (at most 8 sweeps). Within a sweep, a job no smaller
 *    than one that failed earlier in it waits (sizes only get harder as rank worsens), unless it
 *    may backfill. Each other job:
 *    a. place: on free GPUs of healthy nodes outside the reservation (best fit);
 *    b. preempt: else, if unallocated runs and unprotected runs of budgets ranked strictly below
 *       that pass the share guard can make room outside the reservation, take the cheapest set;
 *    c. reserve: else, the first job that fails and that the healthy nodes can hold gets the
 *       nodes where it can start soonest;
 *    d. backfill: a job ranked strictly below the holder whose protection ends by the time the
 *       reserved nodes are ready (when that time is unknown: protected for at most two hours,
 *       ADR 097) may use any free GPUs, reserved ones included.
 *    A preemption that frees GPUs on healthy nodes beyond its job's lifts the size block, and
 *    asks for another sweep from the top (with a new reservation).
 *    e. short jobs (ADR 092): then the short jobs left waiting (allocated, minimum runtime at
 *       most 15 minutes, at most 8 GPUs on one node), in order, get one more try: a and b with
 *       the reservation's nodes open to them unless they are ready within 15 minutes from now,
 *       and victims not screened by the share guard. A short job that fails blocks later ones of
 *       its size or more. A preemption that frees GPUs on healthy nodes beyond its job's ends
 *       the short sweep, and the queue is swept again from step 6 (at most 8 rounds).
 * 7. Unallocated work: unallocated jobs in order take free GPUs of healthy nodes, reserved ones
 *    included; a size that failed blocks larger ones.
 * 8. Every job left waits with a reason (`describeWaiting`), the reservation as the last sweep
 *    left it; with `describeWaits: false` only the error jobs are listed.
 *
 * @example runReferencePass({ cluster, nowSec: 3600, tree, leafUsage: {}, runs: [], pending }).starts
 */
export function runReferencePass(input: ReferencePassInput): SchedulePassResult {
  return referencePassOutcome(input).result;
}

/**
 * `runReferencePass` with the rank of the last sweep's reservation holder, which the fast
 * pass gives its quiet-pass check (internal; the property tests compare both).
 *
 * @example referencePassOutcome(input).reservationHolderRank // null when no job was kept for
 */
export function referencePassOutcome(input: ReferencePassInput): PassOutcome {
  const ranking = input.ranking ?? rankFor(input);
  const state = loadState(input, ranking);
  endRunsOnUnhealthyNodes(state);
  const { errors, allocated, unallocated } = screenAndOrder(state);
  state.result.waiting.push(...errors);
  let holder: Holder | null = null;
  for (let round = 1; round <= MAX_SHORT_ROUNDS; round += 1) {
    holder = sweepAllocated(state, allocated);
    if (!startShortJobs(state, allocated, holder)) break;
  }
  startUnallocated(state, unallocated);
  state.result.waitingCounts = {
    allocated: allocated.filter((job) => !state.started.has(job)).length,
    unallocated: unallocated.filter((job) => !state.started.has(job)).length,
  };
  if (input.describeWaits !== false) describeWaits(state, holder, allocated, unallocated);
  return { result: state.result, reservationHolderRank: holder?.rank ?? null };
}

/** Step 1: the ranking of the input's usage. */
function rankFor(input: ReferencePassInput): FairTreeRanking {
  const { cluster } = input;
  return rankBudgets(input.tree, input.leafUsage!, {
    capacityGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
    windowSec: input.usageMode ? usageWindowSec(input.usageMode) : cluster.lookbackSec,
  });
}

/** The nodes with every input run on them (throws on a node overfilled or unknown). */
function loadState(input: ReferencePassInput, ranking: FairTreeRanking): PassState {
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

/** Steps 2 and 3: runs on down nodes end, unprotected runs on draining nodes are preempted. */
function endRunsOnUnhealthyNodes(state: PassState): void {
  const { nodes, nowSec } = state;
  const healthAt = (position: number) =>
    state.input.cluster.nodes.find((node) => node.index === nodes.index[position])!.health;
  const sliceOn = (run: ReferenceRun, health: string) =>
    run.slices.find((slice) => healthAt(slice.position) === health);
  const kept: ReferenceRun[] = [];
  for (const run of state.runs) {
    const down = sliceOn(run, "down");
    if (!down) {
      kept.push(run);
      continue;
    }
    const outcome = preemptionOutcome(run.run!.isResumable);
    recordPreemption(state, run, {
      rule: "preempt-node-down",
      atSec: nowSec,
      victim: state.budgetRef(run.budgetId),
      victimStartSec: run.startSec,
      node: nodes.index[down.position]!,
      outcome,
    });
  }
  state.runs = kept;
  state.loadedCount = kept.length;
  for (const run of kept) {
    for (const slice of run.slices) {
      nodes.free[slice.position]! -= slice.gpus;
      if (nodes.free[slice.position]! < 0) {
        throw new RangeError(`Node ${nodes.index[slice.position]} holds more GPUs than it has.`);
      }
    }
  }
  for (const run of kept) {
    const draining = sliceOn(run, "draining");
    if (!draining || run.isProtectedNow) continue;
    endRun(state, run, {
      rule: "preempt-drain",
      atSec: nowSec,
      victim: state.budgetRef(run.budgetId),
      victimStartSec: run.startSec,
      protectedUntilSec: run.protectedUntilSec,
      node: nodes.index[draining.position]!,
      outcome: preemptionOutcome(run.run!.isResumable),
    });
  }
  nodes.index.forEach((node, position) => {
    const isEmpty = !kept.some(
      (run) => !run.isGone && run.slices.some((s) => s.position === position),
    );
    if (healthAt(position) === "draining" && isEmpty) {
      state.result.drainsCompleted.push({
        node,
        reason: { rule: "drain-complete", atSec: nowSec, node },
      });
    }
  });
}

/** Records a preemption of an input run. */
function recordPreemption(state: PassState, run: ReferenceRun, reason: PreemptReason): void {
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
function endRun(state: PassState, run: ReferenceRun, reason: PreemptReason): void {
  run.isGone = true;
  for (const slice of run.slices) state.nodes.free[slice.position]! += slice.gpus;
  recordPreemption(state, run, reason);
}

/** Steps 4 and 5: error jobs (input order), then the allocated and unallocated queues. */
function screenAndOrder(state: PassState): {
  errors: WaitDecision[];
  allocated: PendingJob[];
  unallocated: PendingJob[];
} {
  const { tree, cluster } = state.input;
  const errors: WaitDecision[] = [];
  const valid: PendingJob[] = [];
  for (const job of state.input.pending) {
    const budget = checkChargeableBudget(tree, job.budgetId);
    const contract = validateContract(job, cluster.maxMinRuntimeSec);
    if (!budget.ok || !contract.ok) {
      const issues = [...(budget.ok ? [] : budget.issues), ...(contract.ok ? [] : contract.issues)];
      errors.push({
        jobId: job.id,
        budgetId: job.budgetId,
        isError: true,
        reason: {
          rule: "error-invalid-job",
          issues: issues.map((issue) => ({ ...issue, id: job.id })),
        },
      });
    } else if (!canEverPlace(cluster.nodes, job.gpus)) {
      errors.push({
        jobId: job.id,
        budgetId: job.budgetId,
        isError: true,
        reason: {
          rule: "error-larger-than-cluster",
          needGpus: job.gpus,
          clusterGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
          nodeSizeGpus: cluster.nodes.reduce((size, node) => Math.max(size, node.gpus), 0),
        },
      });
    } else valid.push(job);
  }
  const isAllocated = (job: PendingJob): boolean =>
    isAllocatedRun(job.minRuntimeSec, getBudgetNode(tree, job.budgetId)?.effectiveShare ?? 0);
  return {
    errors,
    allocated: orderJobs(valid.filter(isAllocated), state.rankOf),
    unallocated: orderJobs(
      valid.filter((job) => !isAllocated(job)),
      state.rankOf,
    ),
  };
}

/** Starts a job on `placement` (the GPUs are free) and records the start. */
function startJob(
  state: PassState,
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
 * Step 6b: starts `job` after preempting what it may preempt outside `excluded`. Gives whether it
 * started, and whether the victims freed GPUs on healthy nodes beyond what it took there.
 */
function startByPreemption(
  state: PassState,
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
        (!run.isAllocated ||
          (run.rank > rank &&
            passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus))),
    );
  const plan = planVictims(state.nodes, candidates, job.gpus, excluded, state.nowSec);
  if (!plan) return { isStarted: false, hasSurplus: false };
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
  startJob(state, job, true, plan.placement, { preemptedRunIds, outranked });
  const isUsableNode = (node: number) => state.nodes.isUsable[state.nodes.index.indexOf(node)]!;
  const hasSurplus = [...surplus].some(([node, gpus]) => gpus > 0 && isUsableNode(node));
  return { isStarted: true, hasSurplus };
}

/** Step 6c: the reservation of a job that failed, or null when the healthy nodes never hold it. */
function reserveFor(state: PassState, job: PendingJob, rank: number): Holder | null {
  const { tree } = state.input;
  const isShielded = (run: ReferenceRun): boolean =>
    !passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus);
  const reservation = reserveNodes(
    state.nodes,
    state.runs,
    job.gpus,
    rank,
    state.nowSec,
    isShielded,
  );
  return reservation && { job, rank, reservation };
}

/** Step 6: sweeps the allocated queue; gives the last sweep's reservation holder, if any. */
function sweepAllocated(state: PassState, queue: readonly PendingJob[]): Holder | null {
  let holder: Holder | null = null;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    holder = null;
    let hasFreedExtra = false;
    let blockedFromGpus = Number.POSITIVE_INFINITY;
    let backfillBlockedFromGpus = Number.POSITIVE_INFINITY;
    for (const job of queue) {
      if (state.started.has(job)) continue;
      const rank = state.rankOf(job.budgetId);
      if (job.gpus < blockedFromGpus) {
        const excluded = holder?.reservation.isExcluded ?? null;
        const placement = placeOnFree(state.nodes, job.gpus, excluded);
        if (placement) {
          startJob(state, job, true, placement);
          continue;
        }
        const outcome = startByPreemption(state, job, rank, excluded);
        if (outcome.isStarted) {
          if (outcome.hasSurplus) {
            hasFreedExtra = true;
            blockedFromGpus = Number.POSITIVE_INFINITY;
            backfillBlockedFromGpus = Number.POSITIVE_INFINITY;
          }
          continue;
        }
        blockedFromGpus = job.gpus;
        if (holder === null) {
          holder = reserveFor(state, job, rank);
          continue;
        }
      }
      const readyAtSec = holder?.reservation.readyAtSec ?? null;
      const mayBackfill =
        holder !== null &&
        rank > holder.rank &&
        job.gpus < backfillBlockedFromGpus &&
        isBackfillOpen(readyAtSec, state.nowSec, job.minRuntimeSec);
      if (!mayBackfill) continue;
      const placement = placeOnFree(state.nodes, job.gpus, null);
      if (placement) {
        const keptFor = {
          jobId: holder!.job.id,
          budget: state.budgetRef(holder!.job.budgetId),
          readyAtSec,
        };
        startJob(state, job, true, placement, { keptFor });
      } else backfillBlockedFromGpus = job.gpus;
    }
    if (!hasFreedExtra) break;
  }
  return holder;
}

/**
 * Step 6e: short jobs left waiting get one more try, by their own rules. Gives whether a
 * preemption freed GPUs on healthy nodes beyond its job's (the short sweep then ended).
 */
function startShortJobs(
  state: PassState,
  queue: readonly PendingJob[],
  holder: Holder | null,
): boolean {
  const { nodes, nowSec } = state;
  const { tree } = state.input;
  const readyAtSec = holder?.reservation.readyAtSec ?? null;
  const isKeptOpen = readyAtSec === null || nowSec + SHORT_MAX_RUNTIME_SEC <= readyAtSec;
  const excluded = holder && !isKeptOpen ? holder.reservation.isExcluded : null;
  const keptFor = (job: PendingJob, placement: NodeSlice[]): KeptFor | null =>
    holder &&
    isKeptOpen &&
    holder.job !== job &&
    holder.reservation.isExcluded[nodes.index.indexOf(placement[0]!.node)]
      ? { jobId: holder.job.id, budget: state.budgetRef(holder.job.budgetId), readyAtSec }
      : null;
  let maxGpus = shortMaxGpus(nodes.sizeGpus);
  for (const job of queue) {
    if (state.started.has(job) || !isShortJob(job, nodes.sizeGpus) || job.gpus > maxGpus) continue;
    const rank = state.rankOf(job.budgetId);
    const placement = placeOnFree(nodes, job.gpus, excluded);
    if (placement) {
      const short = { isShareGuardWaived: false };
      startJob(state, job, true, placement, { keptFor: keptFor(job, placement), short });
      continue;
    }
    const candidates = state.runs
      .slice(0, state.loadedCount)
      .filter((run) => !run.isGone && !run.isProtectedNow && (!run.isAllocated || run.rank > rank));
    const plan = planVictims(nodes, candidates, job.gpus, excluded, nowSec);
    if (!plan) {
      maxGpus = job.gpus - 1;
      continue;
    }
    const isShareGuardWaived = plan.victims.some(
      (run) =>
        run.isAllocated &&
        !passesShareGuard(tree, state.runs, job.budgetId, run.budgetId, job.gpus, run.gpus),
    );
    const preemptor = { jobId: job.id, budget: state.budgetRef(job.budgetId), gpus: job.gpus };
    let outranked: Comparison | null = null;
    const surplus = new Map<number, number>();
    for (const slice of plan.placement) surplus.set(slice.node, -slice.gpus);
    for (const victim of plan.victims) {
      const run = victim.run!;
      for (const slice of run.placement)
        surplus.set(slice.node, (surplus.get(slice.node) ?? 0) + slice.gpus);
      const parting = run.isAllocated ? state.partingOf(job.budgetId, run.budgetId) : null;
      const victimRef = state.budgetRef(run.budgetId);
      if (run.isAllocated && outranked === null) outranked = { budget: victimRef, parting };
      endRun(state, victim, rankPreemptionReason(run, preemptor, victimRef, nowSec, parting));
    }
    startJob(state, job, true, plan.placement, {
      preemptedRunIds: plan.victims.map((victim) => victim.run!.id),
      outranked,
      keptFor: keptFor(job, plan.placement),
      short: { isShareGuardWaived },
    });
    const isUsableNode = (node: number) => nodes.isUsable[nodes.index.indexOf(node)]!;
    if ([...surplus].some(([node, gpus]) => gpus > 0 && isUsableNode(node))) return true;
  }
  return false;
}

/** Step 7: unallocated jobs take free GPUs on healthy nodes, reserved ones included. */
function startUnallocated(state: PassState, queue: readonly PendingJob[]): void {
  let blockedFromGpus = Number.POSITIVE_INFINITY;
  for (const job of queue) {
    if (job.gpus >= blockedFromGpus) continue;
    const placement = placeOnFree(state.nodes, job.gpus, null);
    if (placement) startJob(state, job, false, placement);
    else blockedFromGpus = job.gpus;
  }
}

/** Step 8: a reason for every job left waiting, in queue order (errors came first). */
function describeWaits(
  state: PassState,
  holder: Holder | null,
  allocated: readonly PendingJob[],
  unallocated: readonly PendingJob[],
): void {
  const { input, nodes } = state;
  const pool = createGpuPool(input.cluster.nodes);
  nodes.free.forEach((free, position) => (pool.free[position] = free));
  const live = state.runs;
  const describe = describeWaiting({
    nowSec: state.nowSec,
    pool,
    live,
    reservation: holder && {
      holderId: holder.job.id,
      holderBudgetId: holder.job.budgetId,
      holderGpus: holder.job.gpus,
      ...holder.reservation,
    },
    rankOf: state.rankOf,
    budgetRef: state.budgetRef,
    partingOf: state.partingOf,
    shapeOf: (gpus) => placementShape(gpus, nodes.sizeGpus),
    holdings: createHoldings(
      input.tree,
      live.filter((run) => !run.isGone && run.isAllocated),
    ),
  });
  for (const [queue, isAllocated] of [
    [allocated, true],
    [unallocated, false],
  ] as const) {
    for (const job of queue)
      if (!state.started.has(job)) state.result.waiting.push(describe(job, isAllocated));
  }
}
