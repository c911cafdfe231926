import { placeJob, type GpuPool, type PlacementShape } from "./placement";
import type { BudgetRef, WaitDecision } from "./reasons";
import type { LiveRun } from "./schedule-pass";
import type { PendingJob } from "./types";

/** The end state of a pass, from which waiting jobs' reasons are read. */
export type WaitContext = {
  nowSec: number;
  pool: GpuPool;
  live: readonly LiveRun[];
  reservation: {
    holderId: string;
    holderBudgetId: string;
    holderGpus: number;
    isExcluded: Uint8Array;
    nodes: number[];
    readyAtSec: number | null;
  } | null;
  rankOf: (budgetId: string) => number;
  budgetRef: (budgetId: string) => BudgetRef;
  isAllocatedJob: (job: PendingJob) => boolean;
  shapeOf: (gpus: number) => PlacementShape;
};

type RankView = {
  preemptableGpus: number;
  protectedGpus: number;
  heldByHigherGpus: number;
  /** Protection ends of lower-ranked protected runs, ascending, with cumulative GPUs. */
  protectedEnds: number[];
  protectedCumulativeGpus: number[];
};

/**
 * Builds the reason for every job still pending after a pass (internal to the pass). Cluster
 * aggregates are computed once, per-rank views once per rank, so thousands of waiting jobs
 * cost little more than a lookup each.
 */
export function describeWaiting(context: WaitContext): (job: PendingJob) => WaitDecision {
  const { pool, nowSec, live, reservation } = context;
  let freeGpus = 0;
  let freeWholeNodes = 0;
  let unusableGpus = 0;
  for (let position = 0; position < pool.free.length; position += 1) {
    if (!pool.isUsable[position]) {
      unusableGpus += pool.capacity[position]!;
      continue;
    }
    freeGpus += pool.free[position]!;
    if (
      pool.capacity[position] === pool.nodeSizeGpus &&
      pool.free[position] === pool.nodeSizeGpus
    ) {
      freeWholeNodes += 1;
    }
  }
  const usableGpusOf = (entry: LiveRun): number =>
    entry.slices.reduce((sum, slice) => sum + (pool.isUsable[slice.position] ? slice.gpus : 0), 0);

  const views = new Map<number, RankView>();
  const viewOf = (rank: number): RankView => {
    let view = views.get(rank);
    if (view) return view;
    view = {
      preemptableGpus: 0,
      protectedGpus: 0,
      heldByHigherGpus: 0,
      protectedEnds: [],
      protectedCumulativeGpus: [],
    };
    const ends: { atSec: number; gpus: number }[] = [];
    for (const entry of live) {
      if (entry.isGone) continue;
      const gpus = usableGpusOf(entry);
      if (!entry.isAllocated) view.preemptableGpus += gpus;
      else if (entry.rank <= rank) view.heldByHigherGpus += gpus;
      else if (!entry.isProtectedNow) view.preemptableGpus += gpus;
      else {
        view.protectedGpus += gpus;
        ends.push({ atSec: entry.protectedUntilSec, gpus });
      }
    }
    ends.sort((a, b) => a.atSec - b.atSec);
    let cumulative = 0;
    for (const end of ends) {
      cumulative += end.gpus;
      view.protectedEnds.push(end.atSec);
      view.protectedCumulativeGpus.push(cumulative);
    }
    views.set(rank, view);
    return view;
  };
  const readyAtSec = (view: RankView, needGpus: number): number | null => {
    const deficit = needGpus - freeGpus - view.preemptableGpus;
    if (deficit <= 0) return nowSec;
    const cumulative = view.protectedCumulativeGpus;
    let low = 0;
    let high = cumulative.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! >= deficit) high = middle;
      else low = middle + 1;
    }
    return low < cumulative.length ? view.protectedEnds[low]! : null;
  };
  const fitsWithoutReservation = new Map<number, boolean>();

  return (job) => {
    const shape = context.shapeOf(job.gpus);
    const isWholeNodes = shape.wholeNodes > 0;
    const budget = context.budgetRef(job.budgetId);
    const rank = context.rankOf(job.budgetId);
    const base = { jobId: job.id, budgetId: job.budgetId, isError: false };
    if (!context.isAllocatedJob(job)) {
      return {
        ...base,
        reason: {
          rule: "wait-unallocated",
          atSec: nowSec,
          budget,
          needGpus: job.gpus,
          isWholeNodes,
          freeGpus,
          freeWholeNodes,
          cause: job.minRuntimeSec > 0 ? "zero-share" : "zero-min-runtime",
        },
      };
    }
    const isHolder = reservation?.holderId === job.id;
    if (reservation && !isHolder) {
      let fits = fitsWithoutReservation.get(job.gpus);
      if (fits === undefined) {
        fits = placeJob(pool, job.gpus) !== null;
        fitsWithoutReservation.set(job.gpus, fits);
      }
      if (fits) {
        return {
          ...base,
          reason: {
            rule: "wait-reservation",
            atSec: nowSec,
            budget,
            needGpus: job.gpus,
            isWholeNodes,
            holder: {
              jobId: reservation.holderId,
              budget: context.budgetRef(reservation.holderBudgetId),
              gpus: reservation.holderGpus,
            },
            reservedNodes: reservation.nodes,
            budgetsAbove: rank - 1,
          },
        };
      }
    }
    const view = viewOf(rank);
    return {
      ...base,
      reason: {
        rule: "wait-resources",
        atSec: nowSec,
        budget,
        needGpus: job.gpus,
        isWholeNodes,
        freeGpus,
        freeWholeNodes,
        protectedGpus: view.protectedGpus,
        readyAtSec: isHolder ? reservation.readyAtSec : readyAtSec(view, job.gpus),
        heldByHigherGpus: view.heldByHigherGpus,
        unusableGpus,
        budgetsAbove: rank - 1,
        reservedNodes: isHolder ? reservation.nodes : [],
      },
    };
  };
}
