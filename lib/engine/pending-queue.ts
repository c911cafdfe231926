import { getBudgetNode } from "./budget-tree";
import { isAllocatedRun } from "./contract";
import { screenPendingJobs } from "./pending-checks";
import { orderQueueIndices } from "./queue-order";
import { SHORT_MAX_RUNTIME_SEC } from "./short-jobs";
import type { WaitDecision } from "./reasons";
import type { BudgetTree, ClusterSpec, PendingJob } from "./types";

/** A budget's leaf rank for the pass (1 = first). */
export type RankOf = (budgetId: string) => number;

/**
 * The jobs of one rank (one budget, or budgets tied on rank) in queue order, with bounds that
 * let a pass pass over the whole group without reading it.
 */
export type QueueGroup = {
  rank: number;
  /** No job of the group asks for fewer GPUs. */
  minGpus: number;
  /** No job of the group declares a shorter minimum runtime. */
  minMinRuntimeSec: number;
  /**
   * No job of the group with a minimum runtime of at most 15 minutes (a short job's, ADR 092)
   * asks for fewer GPUs; Infinity when it has none.
   */
  minShortGpus: number;
  /**
   * The group's next job, then undefined. Jobs asking for more than `maxGpus`, or screened out
   * by `backfill`, may be passed over (the walk moves on past them) or returned: a caller that
   * would pass over them anyway says so, and a long group costs a tight loop instead of a step
   * of the caller's.
   */
  next: (maxGpus?: number, backfill?: BackfillScreen) => PendingJob | undefined;
};

/**
 * Jobs a pass would pass over as backfill: those asking for `fromGpus` or more whose protection,
 * started at `nowSec`, would end after `untilSec`. Jobs asking for fewer are never screened.
 */
export type BackfillScreen = { fromGpus: number; nowSec: number; untilSec: number };

/** Whether `next` may pass over `job` (see `QueueGroup.next`). */
export function isScreenedOut(
  job: PendingJob,
  maxGpus: number,
  backfill?: BackfillScreen,
): boolean {
  if (job.gpus > maxGpus) return true;
  return (
    backfill !== undefined &&
    job.gpus >= backfill.fromGpus &&
    backfill.nowSec + job.minRuntimeSec > backfill.untilSec
  );
}

/**
 * The waiting jobs of one pass, screened, in queue order (ADR 010, `orderQueue`), walked group
 * by group so a pass reads only the jobs that could start: a long queue costs what it reads.
 */
export type PendingQueue = {
  /** Jobs that can never start as submitted, in the order they were given. */
  readonly errors: readonly WaitDecision[];
  readonly allocatedCount: number;
  readonly unallocatedCount: number;
  /** No queued job asks for fewer GPUs (Infinity when none is queued). */
  readonly minGpus: number;
  /**
   * The groups of the allocated (or the unallocated) jobs in queue order under `rankOf`, ranks
   * ascending: each call returns the next group, then undefined. Each walk starts at the head.
   */
  walk(isAllocated: boolean, rankOf: RankOf): () => QueueGroup | undefined;
};

/** Splits jobs already in queue order into groups of equal rank. */
function groupsOf(jobs: readonly PendingJob[], rankOf: RankOf): () => QueueGroup | undefined {
  let start = 0;
  return () => {
    if (start >= jobs.length) return undefined;
    const rank = rankOf(jobs[start]!.budgetId);
    let end = start;
    let minGpus = Number.POSITIVE_INFINITY;
    let minMinRuntimeSec = Number.POSITIVE_INFINITY;
    let minShortGpus = Number.POSITIVE_INFINITY;
    while (end < jobs.length && rankOf(jobs[end]!.budgetId) === rank) {
      const job = jobs[end]!;
      minGpus = Math.min(minGpus, job.gpus);
      minMinRuntimeSec = Math.min(minMinRuntimeSec, job.minRuntimeSec);
      if (job.minRuntimeSec <= SHORT_MAX_RUNTIME_SEC)
        minShortGpus = Math.min(minShortGpus, job.gpus);
      end += 1;
    }
    let next = start;
    const stop = end;
    start = end;
    return {
      rank,
      minGpus,
      minMinRuntimeSec,
      minShortGpus,
      next: (maxGpus = Number.POSITIVE_INFINITY, backfill?: BackfillScreen) => {
        while (next < stop && isScreenedOut(jobs[next]!, maxGpus, backfill)) next += 1;
        return next < stop ? jobs[next++] : undefined;
      },
    };
  };
}

/**
 * The queue of a list of pending jobs, screened, and ordered by `orderQueueIndices` on the first
 * walk. What `runSchedulePass` builds when given an array.
 *
 * @example queueFromPending(pending, tree, cluster).walk(true, rankOf)()?.next()?.id
 */
export function queueFromPending(
  pending: readonly PendingJob[],
  tree: BudgetTree,
  cluster: ClusterSpec,
): PendingQueue {
  const { valid, errors } = screenPendingJobs(pending, tree, cluster);
  const isAllocated = new Uint8Array(valid.length);
  const shareByBudget = new Map<string, number>();
  let allocatedCount = 0;
  let minGpus = Number.POSITIVE_INFINITY;
  valid.forEach((job, i) => {
    let share = shareByBudget.get(job.budgetId);
    if (share === undefined) {
      share = getBudgetNode(tree, job.budgetId)?.effectiveShare ?? 0;
      shareByBudget.set(job.budgetId, share);
    }
    isAllocated[i] = isAllocatedRun(job.minRuntimeSec, share) ? 1 : 0;
    allocatedCount += isAllocated[i]!;
    minGpus = Math.min(minGpus, job.gpus);
  });
  let ordered: { rankOf: RankOf; jobs: PendingJob[] } | null = null;
  return {
    errors,
    allocatedCount,
    unallocatedCount: valid.length - allocatedCount,
    minGpus,
    walk(kind, rankOf) {
      if (ordered?.rankOf !== rankOf) {
        const order = orderQueueIndices(valid, rankOf, (_, i) => isAllocated[i] === 1);
        ordered = { rankOf, jobs: Array.from(order, (i) => valid[i]!) };
      }
      // Allocated jobs come first in the order.
      const { jobs } = ordered;
      return groupsOf(kind ? jobs.slice(0, allocatedCount) : jobs.slice(allocatedCount), rankOf);
    },
  };
}
