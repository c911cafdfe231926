import { getBudgetNode } from "./budget-tree";
import { loadClusterState } from "./cluster-state";
import { isAllocatedRun, protectedUntilSec } from "./contract";
import { createBudgetRefs, rankBudgets, type FairTreeRanking } from "./fair-tree";
import { createHoldings } from "./holdings";
import { screenPendingJobs } from "./pending-checks";
import { placeJob, placementShape } from "./placement";
import { planPreemption, rankPreemptionReason } from "./preemption";
import { orderQueueIndices } from "./queue-order";
import type {
  KeptFor,
  DrainCompleteDecision,
  PreemptDecision,
  StartDecision,
  WaitDecision,
} from "./reasons";
import { reserveNodes, type Reservation } from "./reservation";
import type { ActiveRun, BudgetTree, ClusterSpec, NodeSlice, PendingJob, UsageMode } from "./types";
import { usageWindowSec } from "./usage-window";
import { describeWaiting, type WaitContext } from "./wait-reasons";

/** Everything one scheduling pass of one cluster needs. Nothing here is mutated. */
export type SchedulePassInput = {
  cluster: ClusterSpec;
  /** The moment of the pass, in the caller's epoch seconds. */
  nowSec: number;
  tree: BudgetTree;
  /** Allocated GPU-seconds per leaf in the window at `nowSec` (see `computeLeafUsage`). */
  leafUsage: Record<string, number>;
  runs: readonly ActiveRun[];
  pending: readonly PendingJob[];
  /** A ranking already computed from the same usage; computed here when absent. */
  ranking?: FairTreeRanking;
  /** How `leafUsage` was counted, for usage ratios; default a window of `cluster.lookbackSec`. */
  usageMode?: UsageMode;
  /**
   * Whether to write every waiting job's reason (default true). The simulator, which never shows
   * them, passes false: `waiting` then holds only the jobs that can never start.
   */
  describeWaits?: boolean;
};

/** The decisions of one pass. Every pending job is in exactly one of `starts` or `waiting`. */
export type SchedulePassResult = {
  atSec: number;
  ranking: FairTreeRanking;
  /** In queue order. */
  starts: StartDecision[];
  /** Node-down and drain preemptions first, then those made for starts, in order. */
  preemptions: PreemptDecision[];
  /** In queue order (error jobs first); only the error jobs when `describeWaits` is false. */
  waiting: WaitDecision[];
  /** Jobs left waiting that may start later (errors excluded), by kind. */
  waitingCounts: { allocated: number; unallocated: number };
  /** Draining nodes left without runs: ready for maintenance. */
  drainsCompleted: DrainCompleteDecision[];
};

/**
 * One scheduling pass of one cluster at `nowSec` (DESIGN sections 3-4, ADR 010): kills runs on
 * down nodes, preempts unprotected runs on draining nodes, then walks the queue (allocated jobs
 * by rank, priority within a budget, submit time, id; unallocated jobs after) and starts what
 * fits, preempting unallocated runs and unprotected runs of lower-ranked budgets only when that
 * lets the job start at once. The first allocated job that cannot start gets a reservation of
 * the nodes where it can start soonest; later allocated jobs may not use them, except to backfill
 * with a protection that ends before those nodes are ready. Unallocated jobs then take any GPUs
 * still free. Every pending job gets a start or a reason to wait.
 *
 * Pure and deterministic: the same input gives the same output; inputs are not mutated.
 * Throws only on broken invariants (runs overfilling a node, unknown node indices).
 *
 * @example
 * const result = runSchedulePass({ cluster, nowSec: 3600, tree, leafUsage: {}, runs: [], pending });
 * result.starts.map((start) => start.jobId);
 */
export function runSchedulePass(input: SchedulePassInput): SchedulePassResult {
  const { cluster, nowSec, tree } = input;
  const clusterGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
  const ranking =
    input.ranking ??
    rankBudgets(tree, input.leafUsage, {
      capacityGpus: clusterGpus,
      windowSec: input.usageMode ? usageWindowSec(input.usageMode) : cluster.lookbackSec,
    });
  const unknownRank = ranking.leafCount + 1;
  const rankOf = (budgetId: string): number => ranking.rankByBudgetId[budgetId] ?? unknownRank;
  const budgetRef = createBudgetRefs(tree, ranking);

  const state = loadClusterState(input, rankOf, budgetRef);
  const { pool, live, heldByPosition, preemptions, victimsByPosition } = state;
  // Allocated GPUs held per tree node, kept current through the pass (the share guard, ADR 011).
  const holdings = createHoldings(
    tree,
    live.filter((entry) => !entry.isGone && entry.isAllocated),
  );
  const endRun: typeof state.endRun = (entry, reason) => {
    state.endRun(entry, reason);
    if (entry.isAllocated) holdings.add(entry.budgetId, -entry.gpus);
  };

  // Jobs that can never start as submitted, then the queue.
  const { valid, errors: waiting } = screenPendingJobs(input.pending, tree, cluster);
  // Per-job facts looked up once: the queue below touches every waiting job more than once.
  const isAllocatedJob = new Uint8Array(valid.length);
  const jobRanks = new Float64Array(valid.length);
  const budgetFacts = new Map<string, { share: number; rank: number }>();
  valid.forEach((job, i) => {
    let facts = budgetFacts.get(job.budgetId);
    if (!facts) {
      facts = {
        share: getBudgetNode(tree, job.budgetId)?.effectiveShare ?? 0,
        rank: rankOf(job.budgetId),
      };
      budgetFacts.set(job.budgetId, facts);
    }
    isAllocatedJob[i] = isAllocatedRun(job.minRuntimeSec, facts.share) ? 1 : 0;
    jobRanks[i] = facts.rank;
  });
  const queue = orderQueueIndices(valid, rankOf, (_, i) => isAllocatedJob[i] === 1);

  const starts: StartDecision[] = [];
  const isStarted = new Uint8Array(valid.length);
  const start = (
    jobIndex: number,
    placement: NodeSlice[],
    preemptedRunIds: string[],
    keptFor: KeptFor | null = null,
  ): void => {
    const job = valid[jobIndex]!;
    const isAllocated = isAllocatedJob[jobIndex] === 1;
    const slices = placement.map((slice) => ({
      position: pool.positionOf.get(slice.node)!,
      gpus: slice.gpus,
    }));
    for (const slice of slices) {
      pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
      if (pool.free[slice.position]! < 0) throw new Error("Placement overfilled a node.");
    }
    const until = protectedUntilSec(nowSec, job.minRuntimeSec, isAllocated);
    const index = live.length;
    if (isAllocated) holdings.add(job.budgetId, job.gpus);
    live.push({
      id: `start:${job.id}`,
      budgetId: job.budgetId,
      isAllocated,
      rank: rankOf(job.budgetId),
      startSec: nowSec,
      gpus: job.gpus,
      slices,
      protectedUntilSec: until,
      isGone: false,
      isProtectedNow: isAllocated && until > nowSec,
      run: null,
    });
    for (const slice of slices) heldByPosition[slice.position]!.push(index);
    isStarted[jobIndex] = 1;
    const nodes = placement.map((slice) => slice.node);
    starts.push({
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
            budget: budgetRef(job.budgetId),
            gpus: job.gpus,
            nodes,
            minRuntimeSec: job.minRuntimeSec,
            protectedUntilSec: until,
            preemptedRunIds,
            budgetsAbove: rankOf(job.budgetId) - 1,
            keptFor,
          }
        : {
            rule: "start-unallocated",
            atSec: nowSec,
            budget: budgetRef(job.budgetId),
            gpus: job.gpus,
            nodes,
            cause: job.minRuntimeSec > 0 ? "zero-share" : "zero-min-runtime",
          },
    });
  };

  const allocatedQueue: number[] = [];
  const unallocatedQueue: number[] = [];
  for (const jobIndex of queue) {
    (isAllocatedJob[jobIndex] ? allocatedQueue : unallocatedQueue).push(jobIndex);
  }
  let reservation: { holder: PendingJob; holderRank: number; value: Reservation } | null = null;

  // Starts a job on free GPUs outside `excluded`, else after preempting what it may preempt.
  const tryStart = (
    jobIndex: number,
    jobRank: number,
    excluded: Uint8Array | undefined,
  ): "started" | "started-with-surplus" | "failed" => {
    const job = valid[jobIndex]!;
    const placement = placeJob(pool, job.gpus, excluded);
    if (placement) {
      start(jobIndex, placement, []);
      return "started";
    }
    const plan = planPreemption(
      pool,
      job.gpus,
      live,
      victimsByPosition(),
      (index) => {
        const entry = live[index]!;
        return (
          !entry.isGone &&
          (!entry.isAllocated ||
            (!entry.isProtectedNow &&
              entry.rank > jobRank &&
              holdings.mayPreempt(job.budgetId, entry.budgetId, job.gpus, entry.gpus)))
        );
      },
      nowSec,
      excluded,
    );
    if (!plan) return "failed";
    // GPUs freed beyond what the job takes on a node may let an earlier-failed size fit.
    const surplus = new Map<number, number>();
    for (const slice of plan.placement) surplus.set(slice.node, -slice.gpus);
    const preemptor = { jobId: job.id, budget: budgetRef(job.budgetId), gpus: job.gpus };
    for (const index of plan.victims) {
      const entry = live[index]!;
      const run = entry.run!;
      for (const slice of run.placement) {
        surplus.set(slice.node, (surplus.get(slice.node) ?? 0) + slice.gpus);
      }
      endRun(entry, rankPreemptionReason(run, preemptor, budgetRef(run.budgetId), nowSec));
    }
    start(
      jobIndex,
      plan.placement,
      plan.victims.map((index) => live[index]!.run!.id),
    );
    const hasSurplus = [...surplus].some(
      ([node, gpus]) => gpus > 0 && pool.isUsable[pool.positionOf.get(node)!] === 1,
    );
    return hasSurplus ? "started-with-surplus" : "started";
  };
  // Sweep the allocated queue; sweep again only if a preemption freed GPUs beyond its job's.
  for (let sweep = 0; sweep < 8; sweep += 1) {
    reservation = null;
    let hasFreedExtra = false;
    // Jobs come in non-decreasing rank, so whoever could not start at size g blocks every
    // later job of size >= g until a preemption changes the picture.
    let smallestFailedGpus = Number.POSITIVE_INFINITY;
    let smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
    for (const jobIndex of allocatedQueue) {
      if (isStarted[jobIndex]) continue;
      const job = valid[jobIndex]!;
      const jobRank = jobRanks[jobIndex]!;
      if (job.gpus < smallestFailedGpus) {
        const outcome = tryStart(jobIndex, jobRank, reservation?.value.isExcluded);
        if (outcome === "started") continue;
        if (outcome === "started-with-surplus") {
          hasFreedExtra = true;
          smallestFailedGpus = Number.POSITIVE_INFINITY;
          smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
          continue;
        }
        smallestFailedGpus = job.gpus;
        if (!reservation) {
          const value = reserveNodes(
            pool,
            job.gpus,
            jobRank,
            live,
            heldByPosition,
            nowSec,
            (index) =>
              !holdings.mayPreempt(
                job.budgetId,
                live[index]!.budgetId,
                job.gpus,
                live[index]!.gpus,
              ),
          );
          if (value) reservation = { holder: job, holderRank: jobRank, value };
          continue;
        }
      }
      // Backfill: a job whose protection ends before the reserved nodes are needed may use their
      // free GPUs; the holder, ranked above, can preempt it by then.
      if (
        reservation &&
        reservation.value.readyAtSec !== null &&
        jobRank > reservation.holderRank &&
        nowSec + job.minRuntimeSec <= reservation.value.readyAtSec &&
        job.gpus < smallestFailedBackfillGpus
      ) {
        const placement = placeJob(pool, job.gpus);
        if (placement) {
          start(jobIndex, placement, [], {
            jobId: reservation.holder.id,
            budget: budgetRef(reservation.holder.budgetId),
            readyAtSec: reservation.value.readyAtSec,
          });
        } else {
          smallestFailedBackfillGpus = job.gpus;
        }
      }
    }
    if (!hasFreedExtra) break;
  }
  // Unallocated work takes only GPUs no allocated job could start on in this pass.
  let smallestFailedUnallocated = Number.POSITIVE_INFINITY;
  for (const jobIndex of unallocatedQueue) {
    const job = valid[jobIndex]!;
    if (job.gpus >= smallestFailedUnallocated) continue;
    const placement = placeJob(pool, job.gpus);
    if (placement) start(jobIndex, placement, []);
    else smallestFailedUnallocated = job.gpus;
  }

  const context: WaitContext | null =
    input.describeWaits === false
      ? null
      : {
          nowSec,
          pool,
          live,
          reservation: reservation
            ? {
                holderId: reservation.holder.id,
                holderBudgetId: reservation.holder.budgetId,
                holderGpus: reservation.holder.gpus,
                ...reservation.value,
              }
            : null,
          rankOf,
          budgetRef,
          shapeOf: (gpus) => placementShape(gpus, pool.nodeSizeGpus),
          holdings,
        };
  const waitingCounts = { allocated: 0, unallocated: 0 };
  const describe = context ? describeWaiting(context) : null;
  for (const jobIndex of queue) {
    if (isStarted[jobIndex]) continue;
    const isAllocated = isAllocatedJob[jobIndex] === 1;
    if (isAllocated) waitingCounts.allocated += 1;
    else waitingCounts.unallocated += 1;
    if (describe) waiting.push(describe(valid[jobIndex]!, isAllocated));
  }
  return {
    atSec: nowSec,
    ranking,
    starts,
    preemptions,
    waiting,
    waitingCounts,
    drainsCompleted: state.drainsCompleted,
  };
}
