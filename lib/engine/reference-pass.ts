import { checkChargeableBudget, getBudgetNode } from "./budget-tree";
import { isAllocatedRun, preemptionOutcome } from "./contract";
import { validateContract } from "./contract";
import { rankBudgets } from "./fair-tree";
import type { FairTreeRanking } from "./fair-tree-ranking";
import { createHoldings } from "./holdings";
import { canEverPlace, createGpuPool, placementShape } from "./placement";
import type { WaitDecision } from "./reasons";
import { orderJobs, placeOnFree, shortReservePosition, type ReferenceRun } from "./reference-rules";
import type { PassOutcome, SchedulePassInput, SchedulePassResult } from "./pass-types";
import { MAX_SHORT_ROUNDS } from "./short-jobs";
import type { PendingJob } from "./types";
import { usageWindowSec } from "./usage-window";
import { describeWaiting } from "./wait-reasons";
import {
  endRun,
  loadState,
  recordPreemption,
  startJob,
  type ReferenceHolder,
  type ReferenceState,
} from "./reference-state";
import { startShortJobs, sweepAllocated } from "./reference-sweep";

/** The input of {@link runReferencePass}: the same as `runSchedulePass`'s. */
export type ReferencePassInput = SchedulePassInput;

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
  state.shortReserveAt = shortReservePosition(state.nodes, state.runs);
  startShortJobs(state, allocated, null, true);
  let holder: ReferenceHolder | null = null;
  for (let round = 1; round <= MAX_SHORT_ROUNDS; round += 1) {
    holder = sweepAllocated(state, allocated);
    if (!startShortJobs(state, allocated, holder, false)) break;
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

/** Steps 2 and 3: runs on down nodes end, unprotected runs on draining nodes are preempted. */
function endRunsOnUnhealthyNodes(state: ReferenceState): void {
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

/** Steps 4 and 5: error jobs (input order), then the allocated and unallocated queues. */
function screenAndOrder(state: ReferenceState): {
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

/** Step 7: unallocated jobs take free GPUs on healthy nodes, reserved ones included. */
function startUnallocated(state: ReferenceState, queue: readonly PendingJob[]): void {
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
  state: ReferenceState,
  holder: ReferenceHolder | null,
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
    shortReserveAt: state.shortReserveAt,
  });
  for (const [queue, isAllocated] of [
    [allocated, true],
    [unallocated, false],
  ] as const) {
    for (const job of queue)
      if (!state.started.has(job)) state.result.waiting.push(describe(job, isAllocated));
  }
}
